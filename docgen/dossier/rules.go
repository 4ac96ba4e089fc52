package dossier

// Rules is the dossier's table: every rule of FIDE's standards for
// electronic clocks and of the Laws that FIDE's testing checks, how
// zeitnot meets it, the tests that prove it and the figure measured. It is
// the one place these facts are kept: the document is made from it, and
// TestRulesNameRealTests fails when a row names a test or a figure the
// module does not have.
var Rules = []Rule{
	{
		ID: "(a)", Title: "The clock works in full accordance with the Laws of Chess",
		Source: standards,
		How: "The engine (engine/clock) follows Article 6 to the millisecond: every mode of 6.2 (sudden death, Fischer increment, simple and Bronstein delay, and more), White's clock started at the start (6.5), a move completed by the press (6.7), the flag at the exact instant its time reaches zero (6.3), pauses and the arbiter's corrections (6.12, 6.13). " +
			"Times are derived from the instants of events, never a counter ticked down; the same inputs always give the same clock.",
		Tests:  []string{"TestRules", "TestConservation", "TestShowsChangeNothing"},
		Figure: Cases("TestRules", "cases worked out by hand from Article 6, each a clock log and the clock's state at each of its instants"),
	},
	{
		ID: "(b)", Title: "The display always shows the time available for the next move",
		Source: standards,
		How: "The displays show each side's time left, the increment of the move to come included (90 min + 30 s shows 1:30:30 at the start), redrawn at every press and whenever a shown digit changes; tenths below 20 s. " +
			"A press is journaled and drawn within the figure below.",
		Tests:  []string{"TestFirstMoveIncrement", "TestWakeUps", "BenchmarkPressToFrame"},
		Figure: Bench("BenchmarkPressToFrame", "press to new frame in the simulator, two 128x64 OLEDs, the journal's fsync included"),
	},
	{
		ID: "(c)", Title: "The display is legible from at least 3 m",
		Source: standards,
		How: "The digits are drawn as large as the panel allows. On a panel a side (build A) the time's digits are at least 5 minutes of arc high at 3 m, the 6/6 Snellen letter, the limit of normal vision; a fallen flag's letters are sized for 3 m too. " +
			"One panel for both clocks (build C) is too small for 3 m: a club that plays FIDE events builds one panel a side.",
		Tests:    []string{"TestSeenFromAfar", "TestMarkSizes"},
		Figure:   Logged("TestSeenFromAfar", "3m", "the digits' height measured on the drawn frames of each panel, and the distance they are legible from"),
		Hardware: &Hardware{Guide: guide, Measure: "Set the clock to 1:29:50 and stand 3 m away (a tape measure on the floor): a person with normal sight reads every digit. The digit's height, measured with a ruler on the glass, is at least 4.4 mm."},
	},
	{
		ID: "(d)", Title: "Which clock runs is visible from at least 10 m",
		Source: standards,
		How: "The running side has a solid bar under its time at least one minute of arc high at 10 m (2.9 mm), moved one row a minute so it wears no line into the panel; nothing blinks. " +
			"Build A's levers are lit while their clock runs (profile [led.left], [led.right]).",
		Tests:    []string{"TestSeenFromAfar", "TestRunningSideMark", "TestLEDsFollowTheRunningClock"},
		Figure:   Logged("TestSeenFromAfar", "10m", "the running bar's height measured on the drawn frames, and the distance it is seen from"),
		Hardware: &Hardware{Guide: guide, Measure: "With a clock running, walk 10 m away (a tape measure): the side whose clock runs is told at a glance, by its bar and its lit lever. Then press the lever: the mark moves to the other side."},
	},
	{
		ID: "(e)", Title: "After a time control is passed, a sign shows who passed it; after both flags, who fell first",
		Source: standards,
		How: "A side that reaches the end of a period short of its moves is marked OVERSTEP (OS) until the arbiter clears it. A fallen flag is FLAG on its side; when both have fallen, 1ST on the side whose flag fell first and 2ND on the other (FIDE 6.11), with a filled pennant and a hollow one. " +
			"The first flag is recorded and never changes.",
		Tests:  []string{"TestFlagFallWithIncrement", "TestFlagsDiffer", "TestStatusWords", "TestControlPassedShown"},
		Figure: Cases("TestFlagFallWithIncrement", "cases from the rule's words: the flag in increment games and who fell first"),
	},
	{
		ID: "(f), 3.1.1 to 3.1.4", Title: "Battery level shown; a low-battery warning before or right after setup; at least 10 h of flawless running after it; battery type and number stated",
		Source: standards + "; " + chapter2026,
		How: "With a UPS board's gauge (profile [battery], INA219 or MAX17048) the arbiter's menu shows the battery's level in per cent and the game screen says BATTERY LOW at the profile's low_percent, from the first reading at power-up on. " +
			"Each build's profile states its draw ([supply] current_ma); its parts list sizes the battery from it, 18650 cells by type and number, for a day's event before the warning and 10 h after it, and gives the low_percent that leaves the 10 h.",
		Tests:    []string{"TestBatteryLow", "TestStatusJSON", "TestPack", "TestBuildsStateTheirDraw", "TestPowerFromTheProfile"},
		Figure:   Battery("each reference build's draw and the battery its parts list names"),
		Hardware: &Hardware{Guide: guide, Measure: "Charge the pack, start a 90 min + 30 s game and leave the clock running: note the time BATTERY LOW appears, and check the clock still runs 10 h after it. A USB meter between the supply and the Pi gives the draw to put in the profile."},
	},
	{
		ID: "(h)", Title: "Passing a time control is announced correctly",
		Source: standards,
		How: "When a period's time runs out, the next period's time is added and the display says so: the period's number (PERIOD 2, P2), and OVERSTEP on a side short of the period's moves. " +
			"By default the period advances on the flag, as arbiters prefer (a missed press cannot add time early); on the moves as an option. A 4-digit display has room for the time alone: there the added time is the sign.",
		Tests:  []string{"TestControlPassedShown", "TestRules"},
		Figure: Logged("TestControlPassedShown", "control", "what the displays read after both sides passed the first control"),
	},
	{
		ID: "(i)", Title: "No time is added after the last time control has been passed",
		Source: standards,
		How:    "A period's time is added once, when it begins; in the last period only the control's own increment per move is added, and when the last period's time runs out the flag falls and stays. A flagged side playing on gets no increment.",
		Tests:  []string{"TestNoTimeAfterLastControl", "TestRules"},
		Figure: Cases("TestNoTimeAfterLastControl", "cases from the rule's words"),
	},
	{
		ID: "(j)", Title: "The arbiter corrects time and move counter within 60 s (a new user: 20 s from a running clock)",
		Source: standards,
		How:    "Pause, hold ok: the arbiter's menu opens on the times, the move counters, the periods and the side to move. In the time editor the levers change a field by 10 and plus and minus by 1; pause twice leaves the menu and resumes. +2:00 is two presses while paused.",
		Tests:  []string{"TestArbiterCorrectsTimeAndMoves", "TestPauseCorrectResume", "TestCorrectMovesPeriodAndTurn", "TestPauseAndPlusTwo"},
		Figure: Logged("TestArbiterCorrectsTimeAndMoves", "correction", "presses and seconds, at a new user's pace, to correct a time and a move counter from a running clock"),
	},
	{
		ID: "(k)", Title: "A simple manipulation cannot erase or change the display",
		Source: standards,
		How:    "Corrections only while paused and through the arbiter's menu (a held ok); the settings lock keeps players out of the menu, the corrections and a new game with the arbiter's PIN, also after a flag; both levers at once do not start or swap clocks; a power cut brings the game back paused with its times. Pause twice does not reset anything.",
		Tests:  []string{"TestSimpleManipulations", "TestLockedFlagKeepsTheGame", "TestWrongPIN", "TestBothLeversAtOnce", "TestRecoveryAfterPowerCut", "TestCorrectionsRefusedWhileRunning"},
		Figure: Logged("TestSimpleManipulations", "manipulations", "the simple manipulations of a running clock tried, and what they changed"),
	},
	{
		ID: "(l)", Title: "A short user manual is on the clock",
		Source: standards,
		How:    "The quick-reference card (docs/card.pdf, A5), drawn from the menus themselves, is printed and taped inside the lid; the menus carry a hint line for each button. The players' and arbiters' manuals are in docs/.",
		Tests:  []string{"TestCardHasEveryMenuEntry", "TestCardUpToDate"},
		Figure: Logged("TestCardHasEveryMenuEntry", "card", "what the card holds, checked against the menus"),
	},
	{
		ID: "3.1.5", Title: "Every audible alarm can be switched off",
		Source: chapter2026,
		How:    "Settings › Sound switches every sound; the press beep, the low-time warning and the flag alarm each switch off alone (zeitnot.toml [settings] too).",
		Tests:  []string{"TestEverySoundSwitchesOff", "TestMuted"},
		Figure: Logged("TestEverySoundSwitchesOff", "alarms", "the sounds of a one-minute game, every switch tried"),
	},
	{
		ID: "3.1.6", Title: "Levers and buttons no louder than 40 dB at 1 m",
		Source:   chapter2026,
		How:      "The parts lists ask for arcade levers with a silent microswitch and soft tact switches for the menu buttons, at most 40 dB at 1 m; the builders' guide says how to measure it.",
		Tests:    []string{"TestSwitchesStateTheirSound"},
		Figure:   Logged("TestSwitchesStateTheirSound", "switches", "what each reference build's parts list asks of its switches"),
		Hardware: &Hardware{Guide: guide, Measure: "In a quiet room (below 30 dB), a phone's sound meter 1 m from the clock at the player's ear height: press each lever and button ten times as in play and read the peak (A-weighted). Every press reads at most 40 dB."},
	},
	{
		ID: "3.1.7", Title: "Preferably compatible with electronic chessboards",
		Source: chapter2026,
		How:    "zeitnot eboard reads a DGT board on its serial port and hands each press its move (FIDE 6.14: for displays, never for claims); the hall shows the position and broadcasts the moves.",
		Tests:  []string{"TestWaitAfterQuickPress", "BenchmarkDevUpdates"},
		Figure: Bench("BenchmarkDevUpdates", "one DGT field update, simulated board to driver to the Settler"),
	},
	{
		ID: "6.3.2, 5:03", Title: "The first move of an increment game: 5 min + 3 s starts at 5:03",
		Source: "FIDE's testing report for clocks; Laws of Chess 6.3.2",
		How:    "The first move's increment is given before the game, as FIDE arbiters set clocks (option first-increment, on by default): Blitz 5+3 shows 5:03 on both sides, and every move adds its 3 s. With the option off, 5:00 at the start and 5:03 after a first move made at once.",
		Tests:  []string{"TestFirstMoveIncrement", "TestBlitzShows503"},
		Figure: Logged("TestBlitzShows503", "5:03", "what the displays read with the FIDE preset Blitz 5+3"),
	},
	{
		ID: "flag, increment", Title: "When one flag falls in an increment game the other clock stops and keeps its display (in rapid and blitz it may keep running)",
		Source: standards,
		How:    "By default (after-flag freeze) the flag stops both clocks and each display keeps its time. As an option (after-flag continue, for rapid and blitz) play goes on: the flagged side stays at 0 with no increment and the other side's clock runs after its move.",
		Tests:  []string{"TestFlagFallWithIncrement", "TestRules"},
		Figure: Cases("TestFlagFallWithIncrement", "cases from the rule's words"),
	},
	{
		ID: "D.2.6.1, on request", Title: "A clock for the visually disabled announces the time and number of moves to the player",
		Source: appendixD,
		How:    "An announce button per side speaks that player's time and move count into that player's earphone only: the left channel for the left player, the right for the right, nothing aloud in the hall.",
		Tests:  []string{"TestAnnounceChannel"},
		Figure: Logged("TestAnnounceChannel", "channel", "the channel each side's announcement is on, the other silent"),
	},
	{
		ID: "D.2.6.1, fast and exact", Title: "The announcement is fast and tells the time at the press",
		Source: appendixD,
		How:    "The first sound within 300 ms of the press, the time and moves from the engine's state at the press, spoken from a process that cannot delay a press.",
		Tests:  []string{"TestAnnounceLatency"},
		Figure: Logged("TestAnnounceLatency", "latency", "the first sound's latency and the announcement's length"),
	},
	{
		ID: "D.2.6.1, spoken menu", Title: "A blind player sets a 90'+30\" game alone",
		Source: appendixD,
		How:    "In the spoken-menu mode every menu item is spoken; a 90 min + 30 s game is set up by ear alone.",
		Tests:  []string{"TestSpokenMenuSetup90_30"},
		Figure: Logged("TestSpokenMenuSetup90_30", "menu", "the presses a blind player's set-up takes by spoken menu"),
	},
}

// Where the rules are written, and the builders' guide's section.
const (
	standards   = "FIDE Standards of Chess Equipment, electronic chess clocks"
	chapter2026 = "FIDE equipment with electronic components (in force from 1 March 2026), 3.1"
	appendixD   = "Laws of Chess, Appendix D.2.6.1"
	guide       = "docs/building.md#the-fide-equipment-rules"
)

// Required is every rule the dossier must have a row for, by its ID.
var Required = []string{
	"(a)", "(b)", "(c)", "(d)", "(e)", "(f), 3.1.1 to 3.1.4", "(h)", "(i)", "(j)", "(k)", "(l)",
	"3.1.5", "3.1.6", "3.1.7", "6.3.2, 5:03", "flag, increment",
	"D.2.6.1, on request", "D.2.6.1, fast and exact", "D.2.6.1, spoken menu",
}
