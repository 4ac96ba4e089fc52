// Package timecontrol describes chess clock time controls and reads and
// writes their notation.
//
// A Control is the list of periods one player plays under. The notation
// extends the PGN TimeControl tag (PGN standard, section 9.6.1): periods are
// separated by ':' and each is
//
//	[MOVES/]SECONDS[EXT]
//
// where MOVES is the move quota of the period (no quota: the rest of the
// game) and EXT is one of
//
//	+I     Fischer increment of I seconds per move
//	+I@N   Fischer increment of I seconds for the moves numbered N and
//	       later only (FIDE Armageddon: 300+2@61); the earlier moves get
//	       none, and so does the start (the first-increment option gives
//	       the increment before the game only when it starts at move 1).
//	       @1 is every move, plain +I, and is never written
//	dD     simple (US, FIDE "delay") delay of D seconds per move
//	bB     Bronstein delay of up to B seconds per move
//	~NxT   byo-yomi: when SECONDS run out, N periods of T seconds each
//	~M/T   Canadian overtime: when SECONDS run out, M moves in T seconds,
//	       renewed each time the M moves are made
//
// Two controls are whole-game forms of their own:
//
//	*S     hourglass: both start with S seconds; what one uses, the other gains
//	^      count-up: each clock counts the time used, and no flag falls
//
// All figures are whole seconds. A period with a move quota may be followed by
// further periods; if the last period has a quota it repeats for the rest of
// the game. Examples:
//
//	300+2                  5 minutes, 2 s increment
//	40/5400+30:1800+30     FIDE classical: 90 min for 40 moves, then 30 min,
//	                       30 s per move from move 1
//	5400d5                 US Chess G/90;d5
//	40/7200:20/3600        2 h for 40 moves, then 1 h for every 20 moves
//	300+2@61|240+2@61      FIDE Armageddon: 5 against 4 minutes, 2 s per
//	                       move from move 61
//	*60                    one-minute hourglass
//	3600~5x30              1 h, then five 30 s byo-yomi periods
//	1800~20/300            30 min, then 20 moves in every 5 min
//	^                      count-up
//
// When the two players have different controls (handicap, Armageddon) the
// pair is written WHITE|BLACK, for example "300|240".
//
// Formatting is canonical: Parse(Format(c)) equals c for every valid c, and an
// extension of zero (300+0, 300d0) is read as plain sudden death.
package timecontrol
