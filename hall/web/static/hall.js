// The hall's live pages: the boards come from the live stream (/events,
// Server-Sent Events) and their running clocks run on between messages
// (zeitnotShown). No framework, no build step.
(function () {
  "use strict";
  var root = document.getElementById("boards");
  if (!root) return;
  var TENTHS = 20000; // tenths below 20 s, as the clock shows them
  // A clock on battery below this charge may not last a session (FIDE's
  // equipment rules from 1 March 2026: a low-battery warning at set-up);
  // docs/arbiter-manual.md, "Batteries", says why 50.
  var SESSION_PERCENT = 50;
  var arbiter = root.dataset.arbiter === "1";
  // The clocks' time sources, as the arbiter reads them.
  var TIME_SOURCES = {
    ntp: "NTP", rtc: "its real-time clock", arbiter: "set by the arbiter", sim: "the simulator's",
    host: "the laptop's clock (a demonstration clock)", none: "none: it refuses a scheduled start"
  };
  var single = !!root.dataset.single;
  var views = {}; // board -> {v, got}
  var live = document.getElementById("live");
  var rendered = window.zeitnotRendered = [];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // shown is an instant as the hall wrote it for the page, in the hall's
  // zone (View's time_shown, reply_shown...): never the browser's.
  function shown(s) { return typeof s === "string" && s ? s : "?"; }

  function card(n) {
    var c = document.getElementById("b" + n);
    if (!c) {
      c = el("article", "board");
      c.id = "b" + n;
      c.dataset.board = n;
      // keep the boards in order
      var after = null;
      Array.prototype.forEach.call(root.querySelectorAll("article.board"), function (o) {
        if (after === null && Number(o.dataset.board) > n) after = o;
      });
      root.insertBefore(c, after);
      var empty = document.getElementById("empty");
      if (empty) empty.remove();
    }
    return c;
  }

  var obj = zeitnotObj, num = zeitnotNum;

  // moves is both sides' moves of a state.
  function moves(st) { return num(obj(obj(st).white).moves) + num(obj(obj(st).black).moves); }

  function side(v, name, st) {
    var p = obj(st[name]);
    var d = el("div", "side " + name);
    if (st.running === name) d.classList.add("run");
    if (p.flag) d.classList.add("flag");
    var label = el("span", "who", (name === "white" ? (v.white || "White") : (v.black || "Black")));
    var t = el("span", "t");
    var info = el("span", "info", "moves " + num(p.moves) + " · period " + num(p.period));
    d.appendChild(label);
    d.appendChild(t);
    d.appendChild(info);
    var marks = el("span", "marks");
    if (p.flag) marks.appendChild(el("span", "tag flagged", "flag"));
    if (p.overstep) marks.appendChild(el("span", "tag overstep", "overstep"));
    if (p.mode === "count-up") marks.appendChild(el("span", "tag", "count-up"));
    d.appendChild(marks);
    return d;
  }

  // render shows board n as its view has it. It renders what it has: a
  // member missing or of another type is shown as nothing or 0, never an
  // exception that would stop the page.
  function render(n) {
    var rec = views[n], v = rec.v, c = card(n);
    var oldImg = c.querySelector("img.pos-img");
    c.textContent = "";
    var h = el("h2");
    var a = el("a", "", String(n));
    a.href = "/board/" + n;
    h.appendChild(a);
    if (v.white || v.black) h.appendChild(el("span", "names", (v.white || "?") + " – " + (v.black || "?")));
    c.appendChild(h);
    c.classList.toggle("offline", !v.online);
    var st = v.state !== null && typeof v.state === "object" ? v.state : null;
    c.classList.toggle("paused", !!(st && st.paused));
    c.classList.toggle("running", !!(st && st.running !== "none"));
    var pos = v.position !== null && typeof v.position === "object" ? v.position : null;
    c.classList.toggle("haspos", !!pos);
    // With a board's position, the clocks and the moves go beside it on
    // /board/N; on / the position goes under the clocks.
    var box = c;
    if (pos && single) {
      c.appendChild(position(pos, oldImg, true));
      box = el("div", "beside");
      c.appendChild(box);
    }
    if (st) {
      var sides = el("div", "sides");
      sides.appendChild(side(v, "white", st));
      sides.appendChild(side(v, "black", st));
      box.appendChild(sides);
    } else {
      box.appendChild(el("p", "empty", "no state yet"));
    }
    if (pos && single) box.appendChild(moveList(pos));
    if (pos && !single && !arbiter) c.appendChild(position(pos, oldImg, false));
    if (pos) {
      var nc = document.getElementById("noclaim");
      if (nc) nc.hidden = false;
    }
    var tags = el("p", "tags");
    if (!v.online) tags.appendChild(el("span", "tag offline", v.reason === "stopped" ? "offline (stopped)" : "offline"));
    else if (!v.clock) tags.appendChild(el("span", "tag offline", "clock not reached"));
    if (st && frozen(v)) tags.appendChild(el("span", "tag frozen", "times frozen: last known " + shown(v.time_shown)));
    if (st && st.paused) tags.appendChild(el("span", "tag paused", "paused"));
    if (st && st.recovered) tags.appendChild(el("span", "tag recovered", "recovered"));
    if (st && !st.started) tags.appendChild(el("span", "tag", "not started"));
    if (st && st.stopped) tags.appendChild(el("span", "tag", "stopped"));
    // The result the clock journaled: the players' (both levers) or the arbiter's.
    if (st && typeof st.result === "string" && st.result) tags.appendChild(el("span", "tag result", st.result + (st.result_by === "arbiter" ? " (arbiter)" : "")));
    // The control as played (an arbiter's +5 s per move, FIDE Guidelines III.4), else the game's own,
    // as people read it (the hall writes it: View.Control).
    if (st && typeof v.control === "string" && v.control) tags.appendChild(el("span", "tag control", v.control));
    if (st && Array.isArray(st["default"])) {
      st["default"].forEach(function (s) {
        if (s === "white" || s === "black") tags.appendChild(el("span", "tag default", "DEFAULT " + (s === "white" ? (v.white || "White") : (v.black || "Black")) + " (FIDE 6.6: no move yet; the arbiter decides)"));
      });
    }
    var rnd = st && obj(st.round);
    if (rnd && typeof rnd.starts_in_ms === "number") {
      var cd = el("span", "tag countdown", "");
      cd.dataset.start = String(Date.now() + rnd.starts_in_ms - (frozen(v) ? 0 : num(v.age)));
      cd.dataset.at = num(rnd.start_ms) ? shown(v.start_shown) : "";
      tags.appendChild(cd);
    }
    if (st && st.paused && st.paused_by === "hall") tags.appendChild(el("span", "tag", "paused by the hall"));
    // A spare clock carries the game (FIDE 6.10): the board's own clock is retired.
    var spare = typeof v.spare === "number" && v.spare > 0 ? v.spare : 0;
    if (spare) tags.appendChild(el("span", "tag spare", "on spare clock " + spare + (arbiter ? " (clock " + n + " replaced, retired)" : "")));
    if (arbiter) {
      // What the clock trusts for the time of day: a scheduled start needs one (docs/hall-protocol.md).
      var src = st && typeof st.time_source === "string" ? st.time_source : "";
      if (src) tags.appendChild(el("span", "tag time" + (src === "none" ? " overstep" : ""), "time of day: " + (TIME_SOURCES[src] || src)));
      var pw = power(st);
      tags.appendChild(el("span", "tag power " + (pw.warn ? "overstep" : ""), pw.text));
      var l = el("a", "tag", "log");
      l.href = "/arbiter/board/" + (spare || n);
      tags.appendChild(l);
      // Lines set aside as evidence: forged or out of place (docs/hall-protocol.md).
      if (typeof v.conflicts === "number" && v.conflicts > 0) {
        var cf = el("a", "tag overstep conflicts", v.conflicts + " conflicting line" + (v.conflicts === 1 ? "" : "s"));
        cf.href = "/arbiter/board/" + (spare || n) + (v.game ? "?game=" + encodeURIComponent(v.game) : "");
        tags.appendChild(cf);
      }
      if (spare) {
        var old = el("a", "tag", "retired clock " + n + "'s log");
        old.href = "/arbiter/board/" + n;
        tags.appendChild(old);
      }
      if (v.reply && typeof v.reply === "object") {
        var r = v.reply;
        var rt = el("span", "tag reply " + (r.ok ? "ok" : "refused"), r.cmd + " " + shown(v.reply_shown) + ": " + (r.ok ? ("ok" + (r.detail ? " (" + r.detail + ")" : "")) : r.error));
        rt.title = "the clock's reply to the hall's " + r.cmd + ", received " + shown(v.reply_date);
        tags.appendChild(rt);
      }
    }
    if (pos) boardTags(tags, pos);
    box.appendChild(tags);
    // The last move in sight.
    var ml = c.querySelector("ol.movelist");
    if (ml) ml.scrollTop = ml.scrollHeight;
    c.dataset.time = v.time || 0;
    c.dataset.recv = Date.now();
    c.dataset.moves = st ? moves(st) : 0;
    c.dataset.running = st ? String(st.running) : "";
    // The last renders, for measuring: board, the message's time, moves,
    // when it was shown.
    rendered.push([n, v.time || 0, st ? moves(st) : 0, Date.now()]);
    if (rendered.length > 4000) rendered.splice(0, 2000);
    tick(n);
    countdowns();
    if (arbiter) powerSummary();
  }

  // moveNumber is the number of press i's move (from 0) in the move list.
  function moveNumber(pos, i) {
    var k = i + (pos.black_first ? 1 : 0);
    return (num(pos.first) || 1) + Math.floor(k / 2);
  }

  // knownMoves is how many of the moves, from the first, are known.
  function knownMoves(pos) {
    var m = Array.isArray(pos.moves) ? pos.moves : [];
    var k = m.length, inc = num(pos.incomplete_from);
    if (inc > 0 && inc - 1 < k) k = inc - 1;
    for (var i = 0; i < k; i++) if (typeof m[i] !== "string" || !m[i]) return i;
    return k;
  }

  // position is the board's position drawn by the hall (/position.svg),
  // the last move under it. The picture already shown is kept when it is
  // the same, so that nothing flickers.
  function position(pos, oldImg, big) {
    var d = el("div", "pos" + (big ? " big" : ""));
    if (typeof pos.image === "string" && pos.image.indexOf("/position.svg?") === 0) {
      var img = oldImg && oldImg.getAttribute("src") === pos.image ? oldImg : el("img", "pos-img");
      img.setAttribute("src", pos.image);
      img.alt = "the position on the board" + (pos.fen ? ": " + pos.fen : "");
      d.appendChild(img);
    }
    var ply = num(pos.ply);
    var last = ply > 0 && typeof pos.last_san === "string" && pos.last_san ? pos.last_san : "";
    if (!big) {
      var i = ply - 1;
      d.appendChild(el("p", "lastmove", last ? moveNumber(pos, i) + ((i + (pos.black_first ? 1 : 0)) % 2 ? "... " : ". ") + last : (ply === 0 ? "start position" : "")));
    } else {
      d.appendChild(el("p", "noclaim", "FIDE 6.14: no claim can be based on this display."));
    }
    return d;
  }

  // moveList is the game's moves, numbered, the last one marked, and
  // where they stop being known.
  function moveList(pos) {
    var box = el("div", "moves");
    var ol = el("ol", "movelist");
    var m = Array.isArray(pos.moves) ? pos.moves : [];
    var k = knownMoves(pos), li = null;
    for (var i = 0; i < k; i++) {
      var black = (i + (pos.black_first ? 1 : 0)) % 2 === 1;
      if (!black || li === null) {
        li = el("li");
        li.appendChild(el("span", "mn", moveNumber(pos, i) + (black ? "..." : ".")));
        ol.appendChild(li);
      }
      var mv = el("span", "mv", String(m[i]));
      if (i === k - 1) mv.classList.add("lastmv");
      li.appendChild(mv);
    }
    box.appendChild(ol);
    if (k < m.length || num(pos.incomplete_from) > 0) {
      box.appendChild(el("p", "tag incomplete", "moves not known from move " + moveNumber(pos, k) + (((k + (pos.black_first ? 1 : 0)) % 2) ? " (Black's)" : "") + ": the clock's record has the times"));
    }
    return box;
  }

  // boardTags says what the clock's board status says when it is not ok.
  function boardTags(tags, pos) {
    var t = { illegal: "board: ILLEGAL? (FIDE 7.5: the arbiter sees to it)", mismatch: "board: not the game's position", lost: "board: not answering" }[pos.state];
    if (t) tags.appendChild(el("span", "tag board-" + pos.state, t));
    if (num(pos.incomplete_from) > 0 && !single) tags.appendChild(el("span", "tag incomplete", "moves incomplete"));
  }

  // powerSummary lists, above the boards, every clock to look at before
  // the round: on battery under SESSION_PERCENT, or low.
  function powerSummary() {
    var box = document.getElementById("power");
    if (!box) return;
    var bad = [];
    Object.keys(views).sort(function (a, b) { return a - b; }).forEach(function (n) {
      var st = views[n].v.state;
      var p = power(st !== null && typeof st === "object" ? st : null);
      if (p.warn) bad.push("board " + n + ": " + p.text.replace(/^power: /, ""));
    });
    box.textContent = "";
    box.className = bad.length ? "error" : "flash";
    box.appendChild(el("span", "", bad.length ? "Batteries to see to before the round (on battery under " + SESSION_PERCENT + "%, or low):" : "Power: every clock on mains or on battery at " + SESSION_PERCENT + "% or more."));
    if (bad.length) {
      var ul = el("ul");
      bad.forEach(function (b) { ul.appendChild(el("li", "", b)); });
      box.appendChild(ul);
    }
  }

  // timeEms is how wide a time's text is in ems, in the page's bold
  // tabular digits, with a margin: the CSS sizes the time by it so it
  // fits its side (hall.css, .side .t).
  function timeEms(s) {
    var w = 0;
    for (var i = 0; i < s.length; i++) w += (s[i] >= "0" && s[i] <= "9") ? 0.72 : 0.42;
    return w.toFixed(2);
  }

  // frozen: the board's last state is all the hall knows, its clock
  // offline or not reached.
  function frozen(v) { return !v.online || !v.clock; }

  // power says a clock's supply and charge from its state's battery and
  // power_lost (docs/hall-protocol.md), and whether to warn: on battery
  // below SESSION_PERCENT, or the gauge says low.
  function power(st) {
    if (!st) return { text: "power: no state", warn: false };
    var b = st.battery !== null && typeof st.battery === "object" ? st.battery : null;
    var src = st.power_lost ? "on battery" : (b ? "mains" : "mains (no battery reported)");
    if (!b) return { text: "power: " + src, warn: !!st.power_lost };
    var pct = Math.round(num(b.percent));
    var warn = !!b.low || (st.power_lost && pct < SESSION_PERCENT);
    var text = "power: " + src + ", battery " + pct + "%" + (b.error ? " (gauge: " + b.error + ")" : "");
    if (warn) text += ": may not last the session";
    return { text: text, warn: warn };
  }

  // countdowns writes every round countdown on the page: "start in 4:59
  // (18:30)", or "start due" once it has come.
  function countdowns() {
    Array.prototype.forEach.call(document.querySelectorAll(".tag.countdown"), function (e) {
      var left = Number(e.dataset.start) - Date.now();
      var at = e.dataset.at ? " (" + e.dataset.at + ")" : "";
      e.textContent = left > 0 ? "round starts in " + zeitnotFormat(left, 0, false) + at : "round start due" + at;
    });
  }

  function tick(n) {
    var rec = views[n];
    if (!rec || !rec.v.state || typeof rec.v.state !== "object") return;
    var st = rec.v.state;
    // An offline or unreachable clock's times are frozen at its last
    // state: the page does not guess that it ran on (frozen(v)).
    var e = frozen(rec.v) ? 0 : num(rec.v.age) + (performance.now() - rec.got);
    var t = zeitnotShown(st, e);
    var c = document.getElementById("b" + n);
    if (!c) return;
    var ts = c.querySelectorAll(".t");
    if (ts.length !== 2) return;
    var w = zeitnotFormat(t[0], TENTHS, obj(st.white).mode === "count-up"), b = zeitnotFormat(t[1], TENTHS, obj(st.black).mode === "count-up");
    if (ts[0].textContent !== w) ts[0].textContent = w;
    if (ts[1].textContent !== b) ts[1].textContent = b;
    ts[0].style.setProperty("--w", timeEms(w));
    ts[1].style.setProperty("--w", timeEms(b));
    ts[0].classList.toggle("tenths", t[0] < TENTHS && obj(st.white).mode !== "count-up");
    ts[1].classList.toggle("tenths", t[1] < TENTHS && obj(st.black).mode !== "count-up");
  }

  setInterval(function () {
    try { countdowns(); } catch (err) { if (window.console) console.error("countdown", err); }
    for (var n in views) {
      var st = views[n].v.state;
      // One board's trouble never freezes the others.
      try { if (st && st.running !== "none" && !frozen(views[n].v)) tick(n); } catch (err) { if (window.console) console.error("board " + n, err); }
    }
  }, 100);

  var es;
  function connect() {
    es = new EventSource(root.dataset.stream);
    es.addEventListener("board", function (ev) {
      var v;
      try { v = JSON.parse(ev.data); } catch (err) { return; }
      if (!v || typeof v !== "object" || typeof v.board !== "number") return;
      if (root.dataset.single && String(v.board) !== root.dataset.single) return;
      if (typeof v.moved === "number" && v.moved > 0) {
        // This board's clock carries another board's game now (a
        // takeover): its card goes; the game shows under its own board.
        // A page of this clock alone (a demonstration screen) follows the
        // game there.
        if (root.dataset.single === String(v.board)) {
          location.replace(String(v.moved));
          return;
        }
        var gone = document.getElementById("b" + v.board);
        if (gone) gone.remove();
        delete views[v.board];
        return;
      }
      views[v.board] = { v: v, got: performance.now() };
      try { render(v.board); } catch (err) { if (window.console) console.error("board " + v.board, err); }
    });
    es.addEventListener("ready", function () {
      if (live) { live.textContent = "live"; live.className = "live on"; }
    });
    es.onerror = function () {
      if (live) { live.textContent = "reconnecting"; live.className = "live off"; }
    };
  }
  connect();
})();
