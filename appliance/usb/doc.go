// Package usb is the clock's door for clubs without a network: a USB stick
// plugged into a running clock takes its games out and brings a config in.
//
// # What happens
//
// udev starts zeitnot-usb@DEVICE.service (systemd/udev/61-zeitnot-usb.rules)
// for a FAT file system on a USB stick, and the unit runs `zeitnot usb
// /dev/DEVICE`, which calls Export:
//
//  1. The displays say USB STICK: SAVING / DO NOT PULL IT OUT.
//  2. Config in: a zeitnot.toml at the stick's root is read (at most
//     1 MiB), checked by config.Import, the very code that checks the
//     boot partition's file at boot, and if it has no problem, handed to
//     the daemon to import ("import PATH", below). A refused file is
//     not imported, the clock keeps its config, and the problems go to
//     zeitnot-errors.txt beside it on the stick.
//  3. Games out, into the clock's folder zeitnot/NAME/ (NAME: board-N when
//     the club config gives the clock a board number in [hall], else the
//     host name, zeitnot-XXXX): every finished game of the state
//     directory's games/ that the folder's exported.txt does not list for
//     this clock, as NNNN-DATE.log (the clock log as the clock keeps it)
//     and NNNN-DATE.pgn (clocklog.WritePGN, docs/pgn.md: the clock record,
//     TimeControl, WhiteClock, BlackClock, Date, the journal's names and
//     game id); the game in the journal
//     (under way, or the last one until the next starts) as
//     current-game.log and .pgn; then exported.txt (Manifest) and
//     status.txt: the version, what was saved, the config and its
//     problems, the storage's health, the daemon's status, the effective
//     settings.
//  4. The displays say what happened ("12 GAMES SAVED/CONFIG
//     IMPORTED/PULL THE STICK", Result.Message); the stick may be pulled
//     out. When it is, the unit stops and `zeitnot usb --stopped` takes
//     the message away.
//
// Nothing on the clock is changed by an export: the state directory is
// only read (the unit has it ReadOnlyPaths=), the running game's journal
// is read up to its last whole line, and what was exported is recorded on
// the stick, in exported.txt.
//
// # A stick pulled out early
//
// Every file is written under a temporary name (NAME.tmp), made durable
// (the device is synced, Stick.Sync), and only then renamed: a file with
// its own name is always whole, and a stick pulled out at any moment
// leaves at most .tmp files, which the next export removes before it
// finishes the export. (Should a rename cut short have left a .tmp on the
// same clusters as the file it became, removing or writing over either
// would free the other's data: the export stops, writes nothing, and the
// displays say STICK DAMAGED / CHECK IT ON A COMPUTER.) A game whose files are on the stick but not yet in
// exported.txt is recognised by its log's hash and not written twice.
// Nothing on the clock is lost: it was only read.
//
// # FAT, from user space
//
// Sticks come formatted FAT32 (up to 32 GB) or exFAT (larger ones). The
// exporter reads and writes FAT12/16/32 only, with mtools (Debian's
// package): mdir -b, mtype, mcopy, mren, mdel, mmd and mshowfat on the
// device given with -i. Nothing is mounted: the kernel's file-system
// drivers never parse the stick, and mtools parses it in an unprivileged,
// sandboxed process that can open that one block device and nothing else.
// exFAT has no user-space writer in Debian (exfatprogs makes and checks
// file systems but does not copy files; the FUSE driver needs /dev/fuse
// and a mount), so an exFAT stick is reported on the display (STICK NOT
// READABLE / FORMAT IT FAT32), as is any other file system.
//
// # Untrusted input
//
// A stick is untrusted. What this package parses of it is bounded and
// fuzzed: mdir's bare listing (ParseListing: names that are not plain
// UTF-8 without control characters are left out, at most 4096 entries),
// the manifest (ParseManifest, at most 512 KiB), and the config (1 MiB,
// config.Import's own parser, fuzzed in appliance/config). It reads and
// writes only names that SafeName accepts, so that no name reaches mtools
// as a wildcard or an option. FAT has no symbolic links; what stands in
// for one is refused: a folder where a file is wanted or the other way
// round, two entries of one name (a damaged file system), and a
// zeitnot.toml that is a link stored as a file by Cygwin, Windows or
// macOS. Every mtools program has a time limit (2 minutes), and reading
// stops at the bound. The device must be a block device, not a link.
//
// # The daemon
//
// The exporter talks to the daemon through its control socket only
// (Daemon, ControlDaemon): "usb-message TEXT" for the displays, "import
// PATH" for the config, "status" for the status file. It never waits on
// the daemon's event loop for long, sends a handful of requests per
// export, and runs at the lowest CPU and I/O priority: a running game is
// never paused or slowed by a stick.
package usb
