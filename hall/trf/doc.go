// Package trf reads and writes the FIDE Tournament Report File: the file
// pairing programs (Swiss-Manager, Vega, JaVaFo, bbpPairings, Sharly-Chess,
// Papi-web) exchange, and the hall imports a round from and exports the
// results to.
//
// # The format
//
// A TRF is a text file of fixed-column lines, each starting with a
// three-character tag. The versions read here are TRF-16 (FIDE Handbook
// C.04 Annex 2, 2016) and TRF-2026 (the version FIDE applied from
// 1 September 2025), with the extensions JaVaFo and bbpPairings read:
//
//	012 ...               tournament name (and the other ??2 lines)
//	122 ...               allotted times, free text
//	142 ...               number of rounds (TRF-2026)
//	222 5400+30           encoded time control (TRF-2026)
//	XXR 9                 number of rounds (JaVaFo, bbpPairings)
//	XXC white1            initial colour (JaVaFo, bbpPairings)
//	001 ... per player    the player and one 10-column block per round
//	240 F 003    12       a bye of a round (TRF-2026)
//	### ...               a comment (TRF-2026)
//
// The player line (tag 001) has, in columns counted from 1: 5-8 the
// starting rank, 10 the sex, 11-13 the title, 15-47 the name, 49-52 the
// FIDE rating, 54-56 the federation, 58-68 the FIDE id, 70-79 the birth
// date, 81-84 the points, 86-89 the rank, and for round r from column
// 92+10(r-1): the opponent's starting rank in 4 columns (0000 or blank for
// none), a space, the colour (w, b, or - for none), a space, the result:
//
//	1 = 0      a game won, drawn, lost
//	+ -        a forfeit won, lost
//	W D L      a game won, drawn, lost that lasted less than one move (unrated)
//	H F U Z    a half-point, full-point, pairing-allocated or zero-point bye
//	(blank)    not played yet
//
// Columns count characters, not bytes: a name with diacritics in UTF-8
// takes two bytes for "ö" and one column. Files must be UTF-8; a file in
// another encoding (Windows-1252, as some older programs write) is refused
// with the line of the first byte that is not, so that no name is
// silently garbled on the clocks and in the PGN.
//
// # What the hall keeps
//
// Every line is kept as it came, and Write gives back the file with only
// what the hall changed: the results it set (SetResult) and those players'
// points. So a TRF goes back to its pairing program with nothing lost,
// whatever tags of its own the program wrote, and a pairing program can
// pair the next round from it. Reading what Write wrote gives the same
// tournament (FuzzParse checks that for any input Parse accepts).
//
// # Rounds and boards
//
// A round's pairings (Tournament.Round) are read from the player lines: a
// player whose block for the round names an opponent and the colour w is
// White on a board. A TRF holds no board numbers, so the boards are
// ordered as FIDE's Swiss rules order them (C.04.2): by the higher score
// of the two players, then the lower score, then the better starting rank
// of the two; the arbiter may reorder them before sending. The pairing
// list that JaVaFo and bbpPairings print with -p gives the boards in the
// program's own order instead (ParsePairingList).
//
// Every input is bounded (MaxSize, MaxLineLen, MaxPlayers, MaxRounds) and
// every problem is an *Error naming the file, the line and, where there is
// one, the column.
package trf
