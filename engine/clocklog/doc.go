// Package clocklog reads, writes and replays the clock log: the clock's
// journal and the arbiter's record of a game.
//
// A clock log is UTF-8 text, one directive per line. '#' starts a comment
// (to the end of the line); blank lines are ignored. Header lines come first:
//
//	format 1                     optional; the log format version
//	control SPEC                 both players' time control (timecontrol notation)
//	control white SPEC           White's control
//	control black SPEC           Black's control
//	option NAME VALUE            first-increment on|off,
//	                             period-trigger flag|moves,
//	                             after-flag freeze|continue
//
// Then event lines, MS VERB [ARGS], where MS is the instant in integer
// milliseconds; instants never decrease, and events at the same instant apply
// in file order:
//
//	MS start                     start the clock (White's, unless turned)
//	MS press white|black         a player's lever
//	MS pause                     arbiter pause (FIDE 6.12)
//	MS resume                    resume after a pause
//	MS show                      replay prints the clock at this instant
//	MS checkpoint                the clock was seen running at this instant
//
// Arbiter corrections, valid while paused or before the start (elsewhere they
// are ignored, as presses by the wrong side are):
//
//	MS set white|black MS        set a side's time
//	MS add white|black [+-]MS    add (or take) time, e.g. +120000 after an illegal move
//	MS moves white|black N       set a side's move count
//	MS period white|black K      set a side's period
//	MS turn white|black          the side whose clock runs on resume or start
//	MS clear-overstep white|black  remove a side's overstep mark
package clocklog
