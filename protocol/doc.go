// Package protocol is what crosses a process boundary between the clock
// and the hall, written down once: every message of the daemon's control
// socket that the link and the USB exporter use, and every message of
// the hall protocol (docs/hall-protocol.md), with their limits, their
// validation and the protocol's version.
//
// It is named for what it holds: a newcomer looking for "the protocol"
// finds it at the module's root, beside the document it implements. It
// is standard library and engine only; dependencies point one way:
//
//	engine  <-  protocol  <-  appliance (daemon, session, link, usb)
//	                      <-  hall (intake, store, pages, fakes, bench)
//
// The status JSON is [Status]: the engine's clocklog.StateJSON (what
// `zeitnot replay` prints) and the appliance's fields around it. The
// daemon produces it (appliance/ui.Status is this type), the link
// checks it and passes it on untouched inside a [StateMsg], and the hall
// decodes it once, at intake, with [ParseStateMsg], and keeps the
// decoded value.
//
// One rule for fields a reader does not know. A message or an answer (the
// status, a log line, a reply, the daemon's answer to a helper) is read
// ignoring them ([Strict]): a later version 1 may add fields. A command or
// a request, which the reader carries out (the hall's commands to a clock,
// [ParseCommand]; a helper's requests to the daemon, [DecodeArg]; the
// hall's API), is refused with a field it does not know: an order is
// carried out whole or not at all. A field removed, renamed or given
// another meaning is version 2 ([Version]).
// TestDocument holds docs/hall-protocol.md and these types to each other,
// field by field.
package protocol
