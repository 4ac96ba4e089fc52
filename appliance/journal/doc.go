// Package journal keeps the running game's clock log on disk, durable before
// anything is shown, and gives the game back after a power cut or a kill.
//
// # Files
//
// The journal is a clock log (engine/clocklog), game.log in the state
// directory: a header, then one line per event, then zero bytes. Finished
// games are moved to games/NNNN.log (the newest Keep), their zero padding
// cut off, so an archived game is a plain clock log for `zeitnot replay`.
// What recovery could not use is kept beside the journal:
//
//	game.log.damaged.N   a journal recovery read but could not take as
//	                     written (lines dropped or repaired, no header):
//	                     kept as it was, numbered, the oldest removed while
//	                     all of them take more than Opts.MaxDamaged bytes
//	                     (the newest is always kept)
//	game.log.kept.N      whatever was in the journal's place and could not
//	                     be read: a file without permission or with read
//	                     errors, a directory, a link, a device. Moved aside
//	                     whole, never read, never removed
//	game-G.log           the journal, when the names before it are taken by
//	                     files that could not even be moved aside (or by a
//	                     finished game that could not be archived); Open
//	                     takes the newest generation and moves the older
//	                     ones aside (as game.log.kept.N) when it can
//
// A file that was not read whole is never removed, and its name is never
// taken over before it has another one. Every open in the state directory
// goes through internal/regfile without following a final symbolic link,
// so a link, a named pipe, a device or a directory in the journal's place
// is refused without blocking and moved aside.
//
// # Writing
//
// Open recovers the game in the state directory, or finds none; Start
// begins a new game, archiving the finished one. Append and Note write a
// line and return nil only when it is durable: the daemon shows a press
// after Append returns. With nil they hand back the numbered lines the
// write made durable, as written (held lines first), so the session passes
// them on to the watch stream as they are, neither encoding them again nor
// reading them back. While a clock runs, the daemon appends a checkpoint
// at least once per second, so a power cut costs the running side at most
// one second and never loses a press that was shown.
//
// A line that cannot be written (a full disk, a read-only remount, an I/O
// error) is held in memory, in order, and Append returns an *Error saying
// so (Held). The next Append, Note or Retry writes every held line first,
// and Cleared then reports that the trouble is over. A checkpoint held
// right after a held checkpoint replaces it, so a full disk holds a line
// per press, not per second; past Opts.MaxHeld lines the journal stops
// (Lost) rather than write later events after missing ones. A failed or
// short write never leaves a partial line in the file: its bytes are
// zeroed again before the next write (and that write covers them if the
// zeroing failed too), and the lines always go right after the last
// complete line, so the file has no hole and no line merged with another.
//
// # One block per line
//
// The file is preallocated: it is created and later grown by Opts.Chunk
// bytes of zeros really written (not fallocate, whose unwritten extents
// would need a metadata change when first written), and the growth made
// durable with fsync (the directory too, when the file is created). Each
// line is then written in place over the zeros at the end, with one pwrite,
// and made durable with fdatasync. The file's size and its blocks do not
// change, so fdatasync has no size or allocation to make durable: on ext4
// it writes the one 4 KiB data block holding the line, flushes the card's
// cache, and forces no commit of ext4's own journal. Appending with fsync,
// as earlier versions did, committed ext4's journal for every line: the
// data block, the inode, the journal's descriptor and commit blocks, and
// the block bitmap when a block was added.
//
// Two costs remain. A line that crosses a 4 KiB boundary writes both
// blocks: a boundary is crossed by one line at most, so about one line in
// 36 at the 115 bytes of a running clock's lines, mostly checkpoints that
// name the running side and restate the header (Stats.Blocks counts them:
// 1.028 blocks a line in TestWriteCost). And every write changes the file's modification time, which ext4
// (mounted noatime) journals at its next periodic commit: three blocks
// (descriptor, inode table, commit) per commit interval in which a line
// was written, however many lines. Lines written with fdatasync do not
// wait for that commit, so a longer interval costs them no durability.
// Growing costs Chunk/4096 blocks of zeros and an fsync per Chunk bytes of
// lines: about 0.028 blocks and 0.0018 fsyncs per line with the default
// 64 KiB and 115-byte lines.
//
// Measured by TestExt4Blocks (ext4 on a loop device, one line a second as
// a running clock's checkpoints, kernel 6.18): 1.53 blocks per line with
// noatime,commit=5, 1.07 with noatime,commit=60, for 95-byte checkpoints
// restating the header (60 lines each); 1.52 and 1.05 for the 20-byte
// checkpoints of format 1, where lazytime changed nothing; against 4.03 for
// appending with fsync.
//
// # Recovery
//
// Open reads the journal through Unpad, which drops the zero padding at its
// end (NUL bytes followed by text are damage, passed on), and streams it
// through clocklog's Salvager, replaying each event as it comes: memory
// does not grow with the journal (4 MB of heap and about a second for a
// 100 MB journal, TestHugeJournal), and the game is exactly the one
// clocklog.SalvageReport gives for the whole text, problem for problem
// (TestScanMatchesWholeReader and FuzzScan check it, the file read in
// pieces of every size). The rules are clocklog's (its package doc): a
// torn last line (written in part when the power went: a line without its
// newline, or with zeros inside) is dropped; a line with one flipped bit is
// repaired; a damaged line is dropped alone when the lines after it still
// follow without it, or with the one start, press, pause or resume they
// need put in its place; past damage they do not get over, the rest is
// dropped. Report.Dropped says exactly what was done, line by line, and
// Report.Salvage is the whole report.
//
// The clock comes back paused at the last instant the journal proves, and
// the pause is written. A whole journal (read as written, in format 2)
// goes on in place, after its last line. Any other goes on in a fresh
// game.log written from what salvage kept: the header, the events and the
// notes, checkpoints restating the header, in format 2. So no damaged line
// stays in the file being appended to, and format 2 lines never follow
// the format 1 lines of an earlier version's journal. The old file is kept
// aside (a second name, game.log.damaged.N) if anything in it was not taken
// as written; a read error partway is damage too, but then the file keeps
// its whole self as game.log.kept.N. A journal that cannot be opened, or
// yields no header, gives no game: Report.Lost says why, the file is moved
// aside whole, and the caller starts a new game.
package journal
