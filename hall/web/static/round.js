// The round page follows the clocks: on each change the live stream
// (/events) reports, it reads the page again (GET /arbiter/round?refresh=1,
// which leaves the arbiter's message for the next page) and puts the new
// results, counts, problems and waiting boards into the table. A row's
// result form is left as it is, so a choice being made is kept.
(function () {
  "use strict";
  var table = document.getElementById("round-boards");
  var live = document.getElementById("live");
  if (!table || !table.dataset.stream) {
    if (live) live.hidden = true; // nothing on this page follows the clocks
    return;
  }
  var timer = null, busy = false, again = false;

  function rows(t) {
    var out = {};
    Array.prototype.forEach.call(t.tBodies[0] ? t.tBodies[0].rows : [], function (r) { out[r.id] = r; });
    return out;
  }

  // apply puts the round of the page read, doc, into this one.
  function apply(doc) {
    var nt = doc.getElementById("round-boards");
    if (!nt) return;
    var head = document.getElementById("round-head"), nh = doc.getElementById("round-head");
    if (head && nh && head.innerHTML !== nh.innerHTML) head.innerHTML = nh.innerHTML;
    var old = rows(table), got = rows(nt);
    var same = Object.keys(old).join(" ") === Object.keys(got).join(" ");
    if (!same) {
      // Other boards (a new import or order): the table anew.
      table.tBodies[0].innerHTML = nt.tBodies[0].innerHTML;
      return;
    }
    Object.keys(got).forEach(function (id) {
      var o = old[id], n = got[id];
      if (o.className !== n.className) o.className = n.className;
      // Every cell but the last, the arbiter's result form.
      for (var i = 0; i < n.cells.length - 1 && i < o.cells.length - 1; i++) {
        if (o.cells[i].innerHTML !== n.cells[i].innerHTML) o.cells[i].innerHTML = n.cells[i].innerHTML;
      }
    });
    var byes = document.getElementById("byes"), nb = doc.getElementById("byes");
    if (byes && nb && byes.innerHTML !== nb.innerHTML) byes.innerHTML = nb.innerHTML;
  }

  function refresh() {
    timer = null;
    if (busy) { again = true; return; }
    busy = true;
    fetch("/arbiter/round?refresh=1", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html) apply(new DOMParser().parseFromString(html, "text/html"));
      })
      .catch(function (err) { if (window.console) console.error("round", err); })
      .then(function () {
        busy = false;
        if (again) { again = false; later(); }
      });
  }

  // later reads the page once the changes that come together have come.
  function later() {
    if (timer === null) timer = setTimeout(refresh, 250);
  }

  var ready = false;
  function connect() {
    var es = new EventSource(table.dataset.stream);
    // The snapshot a stream starts with is read once, at its end (ready);
    // the changes after it each read the page.
    es.addEventListener("board", function () { if (ready) later(); });
    es.addEventListener("ready", function () {
      // What came between the page and the stream, or while it was
      // reconnecting.
      later();
      ready = true;
      if (live) { live.textContent = "live"; live.className = "live on"; }
    });
    es.onerror = function () {
      if (es.readyState === EventSource.CONNECTING && live) { live.textContent = "reconnecting"; live.className = "live off"; }
    };
  }
  connect();
})();
