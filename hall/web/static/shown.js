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

// zeitnotFormat writes ms as the clock's displays do (screen.FormatTime,
// appliance/screen/format.go; the rule is in docs/hall-protocol.md, "The
// times as shown"): h:mm:ss from an hour, m:ss below, m:ss.t below
// tenthsBelow ms. A remaining time is rounded up to the unit shown (the
// display never shows 0 before the flag falls); a count-up time is
// rounded down and never shows tenths. Tested against the Go function on
// a table of times (hall/web/shown_test.go, FormatCases).
function zeitnotFormat(ms, tenthsBelow, countUp) {
  ms = Math.max(Math.trunc(zeitnotNum(ms)), 0);
  var tenths = !countUp && ms < tenthsBelow;
  var unit = tenths ? 100 : 1000;
  if (!countUp) ms = Math.ceil(ms / unit) * unit;
  var h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60, s = Math.floor(ms / 1000) % 60;
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  var out = h > 0 ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  if (tenths) out += "." + (Math.floor(ms / 100) % 10);
  return out;
}

if (typeof module !== "undefined") module.exports = { zeitnotShown: zeitnotShown, zeitnotFormat: zeitnotFormat, zeitnotObj: zeitnotObj, zeitnotNum: zeitnotNum };
