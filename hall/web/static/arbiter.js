// The arbiter's page: the hall says how it reads the control field as it
// is typed (GET /arbiter/control, the reading the form's send uses).
(function () {
  "use strict";
  var input = document.querySelector("#form-next-game input[name=control]");
  var out = document.getElementById("control-reading");
  if (!input || !out) return;
  var seq = 0, timer = null;
  function show() {
    var text = input.value.trim();
    if (!text) return;
    var mine = ++seq;
    fetch("/arbiter/control?text=" + encodeURIComponent(text), { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (c) {
        if (mine !== seq) return; // an older answer
        out.className = "reading";
        if (c.error) { out.textContent = c.error; out.classList.add("bad"); return; }
        var s = "Understood: " + c.human + " (" + c.words + ")";
        if (c.preset) s += ", preset " + c.preset;
        if (c.confirm) { s += ". You will be asked to confirm: " + c.confirm; out.classList.add("ask"); }
        out.textContent = s;
      })
      .catch(function () { if (mine === seq) out.textContent = "The hall did not answer; the control is checked when you send it."; });
  }
  input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(show, 150); });
  show();
})();
