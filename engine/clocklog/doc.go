// Package clocklog reads, writes and replays the clock log: the clock's
// journal and the arbiter's record of a game.
//
// # Lines
//
// A clock log is UTF-8 text, one directive per line. '#' at the start of
// a line or after a space starts a comment (to the end of the line; a '#'
// within a word, a mate's SAN "Qh7#", is the word's); blank lines are
// ignored. Header lines come first:
//
//	format 2                     the log format version; 1 if there is none
//	control SPEC                 both players' time control (timecontrol notation)
//	control white SPEC           White's control
//	control black SPEC           Black's control
//	option NAME VALUE            first-increment on|off,
//	                             period-trigger flag|moves,
//	                             after-flag freeze|continue
//
// Then event lines, MS VERB [ARGS], where MS is the instant in integer
// milliseconds, from 0 to clock.MaxInstant (30 days: longer than any game,
// so a larger instant is damage, not time); instants never decrease, and
// events at the same instant apply in file order:
//
//	MS start                     start the clock (White's, unless turned)
//	MS press white|black         a player's lever
//	MS pause                     arbiter pause (FIDE 6.12)
//	MS resume                    resume after a pause
//	MS show                      replay prints the clock at this instant
//	MS checkpoint [white|black] [control=PAIR] [NAME=VALUE]...
//	                             the clock was seen running at this instant
//	                             (for the side named); it may restate the
//	                             header: both controls in pair notation
//	                             (WHITE|BLACK when they differ) and options
//
// The game's result, entered on the clock when the game has ended (it
// changes no clock, and may come at any point; the last one holds):
//
//	MS result 1-0|1/2-1/2|0-1 players
//	                             both players confirmed it, each with
//	                             their own lever (a signed scoresheet)
//	MS result 1-0|1/2-1/2|0-1|* arbiter
//	                             the arbiter entered or corrected it
//	                             (on the clock after the PIN, or from the
//	                             hall); * takes a result back
//
// What an electronic board on the clock showed (FIDE 6.14; board.go). It
// changes no clock, and a log without a board has none:
//
//	MS move N SAN UCI            the move the game's N-th press completed
//	                             (FIDE 6.7a), "4250 move 1 e4 e2e4"
//	MS position N FEN            the board's position after press N (0:
//	                             the start), in its 6 FEN fields
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
//	MS increment white|black|both MS
//	                             a Fischer increment of MS per move for the
//	                             moves the side (or each side) completes from
//	                             then on, in every period from its current
//	                             one (sudden death becomes Fischer); 0 takes
//	                             it back (the control's own periods again);
//	                             with both, neither side gets it if either
//	                             refuses it. FIDE Guidelines III.4:
//	                             increment both 5000
//
// # Format 2: a checksum on every line
//
// Format 2, what this package writes, is format 1 with a checksum at the end
// of every line, so that a flipped bit cannot change a time unnoticed:
//
//	TEXT *CCCCCCCC
//
// TEXT is a format 1 line (a directive, an event or a comment), then come
// one space, '*' and CCCCCCCC, the CRC-32C (Castagnoli) of the bytes of TEXT
// in 8 lowercase hex digits. A carriage return may follow. For example:
//
//	format 2 *5a1bec3d
//	control 300+2 *6c2bd659
//	option first-increment on *02883036
//	option period-trigger flag *d9d1862e
//	option after-flag freeze *0a68f448
//	0 start *37990e4f
//	4000 press white *5a0bcfa9
//	5000 checkpoint black control=300+2 first-increment=on period-trigger=flag after-flag=freeze *9533eda9
//	# a note *99b96953
//
// A log is read as format 2 when any of its lines has a right checksum, or
// ends like a format 2 line and has no comment (no format 1 line can), so
// that a damaged format line does not hide the version (salvage looks at
// the first Lookahead lines for it). Then every
// line must have a right checksum, comments included, and a blank line is
// damage; the format line says 2. A line edited by hand fails its checksum:
// to edit a format 2 log, make it format 1 by deleting its format line and
// every checksum, e.g. sed -e '/^format /d' -e 's/ \*[0-9a-f]\{8\}\r\?$//'.
// Format 1 logs, which have no checksums, are read as before.
//
// The journal restates the header in its checkpoints (AppendCheckpoint), so
// a game whose header is damaged keeps its controls and options, and names
// the running side in them, which lets salvage tell a lost press.
//
// # Salvage
//
// Parse reads a log that must be whole: it stops at the first line it
// cannot use. Salvage and SalvageReport, what recovery after a power cut
// uses, read as much as can be trusted and count and name every line they
// could not take as written (Report). They collect what a Salvager gives,
// which reads the log a line at a time and decides on each line from at
// most Lookahead (128) lines around it, so that a journal of any size is
// read in bounded memory and the same way whole or streamed. The rules, in
// order:
//
//   - A last line without its newline is a write cut by the power loss, not
//     yet durable nor shown: it is dropped (Report.Torn), unless in format 2
//     it is a whole line whose newline had a bit flipped. A read error ends
//     the log: the line it cut is dropped (Report.Err says what failed).
//   - In format 2 a line with a wrong checksum is damaged. If exactly one
//     flip of one bit (in the line, or in a newline that ran two lines
//     together or split one in two) gives lines with right checksums that
//     read, they are restored (Report.Repaired). CRC-32C detects every
//     error of up to three bits in the text of lines this short, so one
//     flipped bit is never mistaken for another; a line with more damage
//     is restored wrongly only if one of the few thousand flips tried
//     happens to give a right checksum, about one chance in a million.
//   - A line is dropped (Report.Dropped, with its reason) if it is damaged
//     and not restored, does not read (format 1), has an instant beyond
//     30 days, breaks the order of the instants around it (an instant
//     earlier than the one before it; or the one before it, if that one is
//     also later than the next one after, the rest is in order without it
//     and it is within Lookahead lines), or is a header line after the
//     first event. A format line naming a newer format than this package
//     reads, before the first event, means the log is not for it: no Log.
//   - Dropped header lines are only counted: the controls are the header's,
//     or if it has none those the first checkpoint restates; when the header
//     is damaged, an option missing from it is taken from the first
//     checkpoint restating it, or else its default is used and named
//     (Report.Defaulted). The checkpoints looked at are those within
//     Lookahead lines of the first event. With no control there is no game
//     to recover and the Log is nil.
//   - The journal writes only events that change the clock. So after a run
//     of dropped lines among the events, the events after it (up to the next
//     damage, within Lookahead lines) must follow from those before it: each
//     start, press, pause and resume changes the clock, each correction is
//     accepted, and each checkpoint finds the clock running, for the side it
//     names. If they do, the run is skipped: most lines of a running game
//     are checkpoints. If they do not, but exactly one event in its place
//     (start, a press by the side to move, pause or resume) makes them
//     follow, that event is put there (Report.Inferred): at the damaged
//     line's own instant if it reads and lies between its neighbours. Else
//     the instant is not in the journal, the problem says so and within
//     which bounds it lay (the journal writes a line at least every
//     MaxLineGap ms while a clock runs), and it is taken where the writer
//     put it: a press CheckpointDue before the checkpoint after it (the
//     writer's checkpoint is due then; a late wake-up is the only error),
//     or at the earliest instant the bounds allow when another event
//     follows; a pause at the line before, a start or a resume at the line
//     after. Otherwise salvage stops
//     there: the events before it are kept, and every line after it is
//     dropped and counted.
//
// A Report lists at most MaxProblems problems; past them it counts on, and
// its last problem says how many more there were. A Salvager also gives the
// comment lines (those not amid damaged lines), for a journal rewritten from
// what salvage kept.
//
// One damaged line anywhere, the header and the start included, thus loses
// no game: a flipped bit is repaired, the header is restated, and a lost
// start, press, pause or resume is put back. What salvage cannot see is a
// lost correction (set, add, moves, period: made while paused, they change
// no later event), a lost press followed (within Lookahead lines) only by
// checkpoints that name no side, or a lost last event, with nothing after
// it; each is still counted in Report.Dropped.
package clocklog
