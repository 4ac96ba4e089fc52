// zeitnotShown is protocol.Status.Shown (protocol/state.go) in
// JavaScript: the times a display shows e milliseconds after the state
// held, when nothing happens in between. A member missing or of another
// type counts as 0 (the hall refuses such states, but a page never
// throws). Only the running side moves:
// count-up goes up; otherwise a simple delay is used up first, then the
// time goes down and stops at 0; in hourglass what one side loses the
// other gains. Tested against the Go function on shared cases
// (hall/web/testdata/shown.json).
function zeitnotObj(x) { return x !== null && typeof x === "object" ? x : {}; }
function zeitnotNum(x) { return typeof x === "number" && isFinite(x) ? x : 0; }

function zeitnotShown(s, e) {
  s = zeitnotObj(s);
  var sw = zeitnotObj(s.white), sb = zeitnotObj(s.black);
  var white = zeitnotNum(sw.ms), black = zeitnotNum(sb.ms);
  e = Math.max(Math.trunc(zeitnotNum(e)), 0);
  var side;
  if (s.running === "white") side = sw;
  else if (s.running === "black") side = sb;
  else return [white, black];
  var run = s.running === "white" ? white : black;
  var other = s.running === "white" ? black : white;
  if (side.mode === "count-up") {
    run += e;
  } else {
    var used = Math.min(Math.max(e - zeitnotNum(side.delay_ms), 0), run);
    run -= used;
    if (side.mode === "hourglass") other += used;
  }
  return s.running === "white" ? [run, other] : [other, run];
}

// zeitnotFormat writes ms as a clock shows it: h:mm:ss from an hour,
// m:ss below, and seconds with tenths below tenthsBelow ms.
function zeitnotFormat(ms, tenthsBelow) {
  ms = Math.max(zeitnotNum(ms), 0);
  if (ms < tenthsBelow) {
    var t = Math.floor(ms / 100);
    return Math.floor(t / 10) + "." + (t % 10);
  }
  var s = Math.floor(ms / 1000);
  var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = s % 60;
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  return h > 0 ? h + ":" + two(m) + ":" + two(ss) : m + ":" + two(ss);
}

if (typeof module !== "undefined") module.exports = { zeitnotShown: zeitnotShown, zeitnotFormat: zeitnotFormat, zeitnotObj: zeitnotObj, zeitnotNum: zeitnotNum };
