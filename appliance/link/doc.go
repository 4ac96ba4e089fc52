// Package link is the clock's network side: `zeitnot link`, a process of
// its own beside the daemon, which has no network. It follows the daemon
// through its control socket (the watch stream, with appliance/watch) and
// publishes the clock to the hall's MQTT 5 broker; it carries the hall's
// commands back to the daemon.
//
// The protocol, version 1, is docs/hall-protocol.md, and its messages are
// the protocol package's types: the topics under
// zeitnot/v1/{hall}/board/{board}/ and what each message holds. In short:
//
//   - state (retained): the daemon's status JSON with the instant it held,
//     on every event, every 10 s, and when the running clock reaches 0;
//     protocol.Status.Shown runs it on between messages, as a viewer does.
//   - log (QoS 1): every line of the game's journal, numbered from 1 in
//     each game. The link sends a line once the broker has acknowledged
//     the one before, and after an outage goes on from the last one
//     acknowledged. It takes the lines from the daemon's watch stream,
//     where each event carries its journal line and number, and asks
//     "log GAME FROM" (which reads them from disk) only to catch up after
//     a reconnect, at a new game, or past a line the stream skipped; it
//     holds at most protocol.MaxLogLines lines in memory and writes only its
//     position to its own state directory. It signs each line with the
//     board's Ed25519 key (protocol.SignLine), which it makes at its first
//     start and keeps in its state directory ([KeyFile]).
//   - online (retained, and the will): whether the link is there, whether
//     it reaches the daemon, and the board's public key.
//   - cmd, and the hall's all/cmd: commands, checked here (size, schema,
//     no unknown fields, rate) before the daemon sees them; the answer goes
//     to reply. No command changes a running game's times or moves.
//
// The config is the [hall] table of zeitnot.toml ([LoadConfig]); a file
// without it means the clock is not linked, and the link has nothing to
// do. The MQTT client is eclipse/paho.golang's autopaho, which reconnects
// with backoff; the link keeps its own account of what the broker has
// acknowledged, and starts every connection with a clean session.
//
// linktest holds a fake daemon that speaks the control protocol the link
// needs, and a mosquitto broker for tests.
package link
