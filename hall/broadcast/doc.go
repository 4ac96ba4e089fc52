// Package broadcast pushes the hall's round to lichess's broadcasts, for
// a hall that lichess cannot reach (a laptop on a club's Wi-Fi behind
// NAT): the hall sends the round's PGN to
// POST {url}/api/broadcast/round/{round}/push, lichess's endpoint for a
// round without a source URL (lichess-org/api, broadcastPush), with the
// broadcaster's token of scope study:write as a bearer token and the PGN
// as a text/plain body of at most 100 games.
//
// What goes in a push is the round's feed, /round.pgn, at the push's
// instant (web.Server.RoundPGN, the feed's one definition): the same
// games, the same broadcast delay, the same ranges of boards. Every game
// of a range goes in every push, as lichess marks a round finished once
// every game of a push has a result: a push of some games would end the
// round early.
//
// The hall pushes when a game changes, at most once an interval, and only
// a range whose PGN changed since its last accepted push. lichess answers
// each game of a push (its tags, and the moves it took or its error):
// Status keeps those answers for the arbiter's page. A push that fails is
// tried again after a backoff that doubles up to MaxBackoff, its error
// kept; a 429 waits as long as its Retry-After says (a minute without
// one); a 401 says the token is refused, and the hall pushes no more
// until it is restarted with another.
//
// The token is sent in the Authorization header only: never in the URL,
// never in a log line, never in Status.
package broadcast
