package usb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// Opts say where the clock's files are and how to reach its daemon.
type Opts struct {
	// StateDir is the daemon's state directory (read only).
	StateDir string
	// ConfigPath is the club config the clock falls back on when none
	// was imported (/etc/zeitnot/zeitnot.toml).
	ConfigPath string
	// DefaultProfile is the hardware profile of the defaults, as the
	// daemon's, for the effective settings in the status file.
	DefaultProfile string
	// WorkDir is where the exporter writes: the files it copies to the
	// stick, and the stick's config for the daemon to import. Under
	// systemd, the unit's runtime directory. Required.
	WorkDir string
	// ShareGroup is the group the stick's config is given, with mode
	// 0640 (and WorkDir 0750), so that the daemon may read it ("zeitnot");
	// "": none, the files keep the exporter's group.
	ShareGroup string
	// Hostname names the clock (FolderName); "" asks the system.
	Hostname string
	// Version is the clock's version, for the status file.
	Version string
	// Daemon is the clock's daemon; nil: none (messages only logged).
	Daemon Daemon
	// Clock is the time of day, for the status file; nil: wallclock.Real.
	Clock wallclock.Clock
	// Logf logs one line; nil: nothing.
	Logf func(format string, args ...any)
	// MaxGame bounds a finished game's log; 0: DefaultMaxGame.
	MaxGame int64
	// Spool is where a bundle on the stick is copied to (bundle.go);
	// "": protocol.UpdateSpool.
	Spool string
	// maxBundle bounds a bundle (tests); 0: protocol.MaxBundle.
	maxBundle int64
}

// ConfigOutcome is what became of a zeitnot.toml on the stick.
type ConfigOutcome int

// What can become of a stick's zeitnot.toml.
const (
	ConfigNone        ConfigOutcome = iota // the stick has none
	ConfigImported                         // checked and imported: the clock uses it
	ConfigUnchanged                        // checked: the clock has it already
	ConfigRefused                          // it has problems: not imported, the old config kept
	ConfigNotImported                      // good, but the daemon did not take it
	ConfigLocked                           // the clock is locked: not imported without the arbiter's PIN
)

var outcomeText = [...]string{
	ConfigNone:        "none on the stick",
	ConfigImported:    "imported",
	ConfigUnchanged:   "the clock has it already",
	ConfigRefused:     "refused, the clock keeps its config",
	ConfigNotImported: "not imported: the clock did not take it",
	ConfigLocked:      "not imported: the clock is locked (the arbiter's PIN first)",
}

func (c ConfigOutcome) String() string { return outcomeText[c] }

// Result is what an export did.
type Result struct {
	Folder   string // the clock's folder on the stick: zeitnot/NAME
	Saved    int    // finished games written to the stick now
	Already  int    // finished games the stick had already
	Left     int    // finished games not written (the stick filled up, or was pulled out)
	Current  bool   // the game under way (or the last one) was written
	Problems []string

	Config       ConfigOutcome
	ConfigErrors []string // why the config was refused or not imported

	Update      UpdateOutcome // what became of an update bundle (bundle.go)
	UpdateError string        // why it was refused

	// Err is the trouble with the stick that stopped the export; nil if
	// it ran to the end.
	Err error
	// Pulled says that the stick went away during the export.
	Pulled bool
}

// Message is what the displays say at the end: what was saved and
// imported, and that the stick may be pulled out; or what went wrong.
// Lines are separated by '/'.
func (r *Result) Message() string {
	var parts []string
	games := r.Saved
	if r.Current {
		games++
	}
	switch {
	case r.Pulled:
		return "STICK PULLED OUT EARLY/NOTHING LOST ON THE CLOCK/PUT IT IN AGAIN"
	case errors.Is(r.Err, ErrNotFAT):
		return "STICK NOT READABLE/FORMAT IT FAT32"
	case errors.Is(r.Err, ErrDamaged):
		return "STICK DAMAGED/CHECK IT ON A COMPUTER/NOTHING LOST ON THE CLOCK"
	case errors.Is(r.Err, ErrFull):
		parts = append(parts, "STICK FULL", fmt.Sprintf("%d OF %d GAMES SAVED", games, games+r.Left))
	case r.Err != nil:
		parts = append(parts, "STICK ERROR", fmt.Sprintf("%d GAMES SAVED", games))
	case games == 1:
		parts = append(parts, "1 GAME SAVED")
	default:
		parts = append(parts, fmt.Sprintf("%d GAMES SAVED", games))
	}
	switch r.Config {
	case ConfigImported:
		parts = append(parts, "CONFIG IMPORTED")
	case ConfigUnchanged:
		parts = append(parts, "CONFIG UNCHANGED")
	case ConfigRefused:
		parts = append(parts, "CONFIG REFUSED: SEE STICK")
	case ConfigNotImported:
		parts = append(parts, "CONFIG NOT IMPORTED: SEE STICK")
	case ConfigLocked:
		parts = append(parts, "CONFIG NOT IMPORTED: LOCKED", "ARBITER: PIN, THEN STICK")
	}
	switch r.Update {
	case UpdateOffered:
		parts = append(parts, "UPDATE COPIED: SEE THE CLOCK")
	case UpdateRefused:
		parts = append(parts, "UPDATE NOT TAKEN: SEE STICK")
	}
	return strings.Join(append(parts, "PULL THE STICK"), "/")
}

// maxConfig is the largest zeitnot.toml read from a stick: as large as
// the config package reads any config file.
const maxConfig = 1 << 20

// Export exports the clock's games to the stick and imports its config,
// telling the displays what it does (see the package doc). It never
// writes the state directory. The returned Result says what was done;
// Result.Err is the trouble that stopped it, if any.
func Export(ctx context.Context, s *Stick, o Opts) *Result {
	x := &exporter{s: s, o: o, r: &Result{}}
	x.o.Clock = wallclock.Or(x.o.Clock)
	if x.o.Logf == nil {
		x.o.Logf = func(string, ...any) {}
	}
	if x.o.MaxGame <= 0 {
		x.o.MaxGame = DefaultMaxGame
	}
	if x.o.Hostname == "" {
		x.o.Hostname, _ = os.Hostname()
	}
	x.host = x.o.Hostname
	if !HostName(x.host) {
		x.host = "clock"
	}
	x.show("USB STICK: SAVING/DO NOT PULL IT OUT")
	x.r.Err = x.run(ctx)
	if x.r.Err != nil {
		x.r.Pulled = s.Gone() || ctx.Err() != nil
		x.o.Logf("usb: %v", x.r.Err)
	}
	x.show(x.r.Message())
	return x.r
}

type exporter struct {
	s    *Stick
	o    Opts
	r    *Result
	host string // the clock's host name, as the manifest names it
	root []Entry
	// stage is the folder of the files about to be copied to the stick.
	stage string
}

func (x *exporter) show(text string) {
	x.o.Logf("usb: display: %s", text)
	if x.o.Daemon == nil {
		return
	}
	if err := x.o.Daemon.Show(message(text)); err != nil {
		x.o.Logf("usb: the daemon did not take the message: %v", err)
	}
}

func (x *exporter) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	x.r.Problems = append(x.r.Problems, msg)
	x.o.Logf("usb: %s", msg)
}

func (x *exporter) run(ctx context.Context) error {
	if x.o.WorkDir == "" {
		return errors.New("usb: no work directory")
	}
	stage, err := os.MkdirTemp(x.o.WorkDir, "stage-")
	if err != nil {
		return fmt.Errorf("usb: %w", err)
	}
	defer os.RemoveAll(stage)
	x.stage = stage

	root, odd, err := x.s.List(ctx, "")
	if err != nil {
		return err
	}
	if odd > 0 {
		x.problem("%d names at the stick's root are not plain names: left alone", odd)
	}
	x.root = root
	if err := x.configIn(ctx); err != nil {
		return err
	}
	if err := x.gamesOut(ctx); err != nil {
		return err
	}
	if err := x.s.Sync(); err != nil {
		return err
	}
	// Last: the bundle is the slow part, and the games are out already.
	return x.bundleIn(ctx)
}

// put writes files to the stick's folder dir: each under a temporary
// name, made durable, then renamed, so that a file with its own name is
// always whole. files maps names to contents; modTime is the files' time.
func (x *exporter) put(ctx context.Context, dir string, modTime time.Time, names []string, data [][]byte) error {
	var local []string
	defer func() {
		for _, p := range local {
			os.Remove(p)
		}
	}()
	for i, n := range names {
		p := filepath.Join(x.stage, n+TempSuffix)
		if err := os.WriteFile(p, data[i], 0o600); err != nil {
			return fmt.Errorf("usb: %w", err)
		}
		if !modTime.IsZero() {
			os.Chtimes(p, modTime, modTime)
		}
		local = append(local, p)
	}
	if err := x.s.Put(ctx, dir, local...); err != nil {
		// A copy cut short leaves at most temporary names: try to take
		// them away (the next export does, if this fails too).
		var tmp []string
		for _, n := range names {
			tmp = append(tmp, join(dir, n+TempSuffix))
		}
		x.s.Remove(context.WithoutCancel(ctx), tmp...)
		return err
	}
	if err := x.s.Sync(); err != nil {
		return err
	}
	for i, n := range names {
		if err := x.s.Rename(ctx, join(dir, n+TempSuffix), n); err != nil {
			// A folder of that name, say (a folder exported.txt): the
			// temporary copies not renamed go, as after a copy cut short.
			var tmp []string
			for _, m := range names[i:] {
				tmp = append(tmp, join(dir, m+TempSuffix))
			}
			x.s.Remove(context.WithoutCancel(ctx), tmp...)
			return fmt.Errorf("usb: %s: %w", join(dir, n), err)
		}
	}
	return nil
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// configIn checks and imports the stick's zeitnot.toml, if it has one.
// It returns only trouble with the stick: a refused config is a result.
func (x *exporter) configIn(ctx context.Context) error {
	e, n := find(x.root, ConfigFile)
	if n == 0 {
		return nil
	}
	refuse := func(outcome ConfigOutcome, problems ...string) error {
		x.r.Config, x.r.ConfigErrors = outcome, problems
		for _, p := range problems {
			x.o.Logf("usb: %s", p)
		}
		text := fmt.Sprintf("zeitnot.toml was not imported by the clock %s on %s:\n\n%s\n",
			x.o.Hostname, x.o.Clock.Now().Format("2006-01-02 15:04"), strings.Join(problems, "\n"))
		if outcome == ConfigRefused {
			text += "\nThe clock keeps its config. Correct the file (`zeitnot config check zeitnot.toml`\nprints the same problems) and put the stick in again.\n"
		}
		return x.put(ctx, "", time.Time{}, []string{ErrorsFile}, [][]byte{[]byte(text)})
	}
	switch {
	case n > 1:
		return refuse(ConfigRefused, fmt.Sprintf("%s: %d entries have this name: the stick's file system is damaged (check it on a computer)", ConfigFile, n))
	case e.Dir:
		return refuse(ConfigRefused, ConfigFile+": a folder, not a file")
	}
	data, err := x.s.Read(ctx, e.Name, maxConfig)
	if errors.Is(err, ErrTooMuch) {
		return refuse(ConfigRefused, fmt.Sprintf("%s: cannot read: larger than %d bytes, not a config file", ConfigFile, maxConfig))
	}
	if err != nil {
		return err
	}
	if link := symlinkLike(data); link != "" {
		return refuse(ConfigRefused, fmt.Sprintf("%s: %s, not the file itself: copy the file onto the stick", ConfigFile, link))
	}
	local := filepath.Join(x.o.WorkDir, ConfigFile)
	if err := x.writeShared(local, data); err != nil {
		return err
	}
	// The check is config.Import's own, into a scratch directory: the
	// same code the boot partition's file goes through, and the same
	// that the daemon runs again when it imports.
	scratch, err := os.MkdirTemp(x.stage, "check-")
	if err != nil {
		return fmt.Errorf("usb: %w", err)
	}
	problems, _, err := config.Import(local, scratch)
	if err != nil {
		return fmt.Errorf("usb: checking %s: %w", ConfigFile, err)
	}
	if len(problems) > 0 {
		var msgs []string
		for _, p := range problems {
			var fe *tomldoc.FileError // every table's
			if errors.As(p, &fe) && fe.File == local {
				fe.File = ConfigFile // as on the stick
			}
			msgs = append(msgs, p.Error())
		}
		return refuse(ConfigRefused, msgs...)
	}
	if x.o.Daemon == nil {
		return refuse(ConfigNotImported, "the clock's daemon is not running: plug the stick in again once the clock shows its times")
	}
	changed, err := x.o.Daemon.Import(local)
	if errors.Is(err, ErrLocked) {
		return refuse(ConfigLocked, ConfigFile+": not imported: "+ErrLocked.Error())
	}
	if err != nil {
		return refuse(ConfigNotImported, fmt.Sprintf("%s: the clock did not import it: %v", ConfigFile, err))
	}
	x.r.Config = ConfigUnchanged
	if changed {
		x.r.Config = ConfigImported
	}
	if _, n := find(x.root, ErrorsFile); n == 1 {
		// The file was about an earlier zeitnot.toml.
		if err := x.s.Remove(ctx, ErrorsFile); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return nil
}

// symlinkLike says what data is when it is a symbolic link stored as a
// file by a system without links on FAT: Cygwin's ("!<symlink>"), Interix
// and Windows Services for Unix ("IntxLNK"), or macOS's on FAT ("XSym").
func symlinkLike(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("!<symlink>")):
		return "a symbolic link made by Cygwin"
	case bytes.HasPrefix(data, []byte("IntxLNK")):
		return "a symbolic link made by Windows"
	case bytes.HasPrefix(data, []byte("XSym\n")):
		return "a symbolic link made by macOS"
	}
	return ""
}

// writeShared writes a file the daemon reads: mode 0640, with the work
// directory, in the share group.
func (x *exporter) writeShared(path string, data []byte) error {
	os.Remove(path)
	if err := os.WriteFile(path, data, 0o640); err != nil {
		return fmt.Errorf("usb: %w", err)
	}
	if x.o.ShareGroup == "" {
		return nil
	}
	g, err := user.LookupGroup(x.o.ShareGroup)
	if err != nil {
		return fmt.Errorf("usb: group %s: %w", x.o.ShareGroup, err)
	}
	gid, _ := strconv.Atoi(g.Gid)
	for _, p := range []string{x.o.WorkDir, path} {
		// Under the unit the group is the process's own already (Group=),
		// and chown is not among its system calls.
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err == nil && int(st.Gid) == gid {
			continue
		}
		if err := os.Chown(p, -1, gid); err != nil {
			return fmt.Errorf("usb: %w", err)
		}
	}
	if err := os.Chmod(x.o.WorkDir, 0o750); err != nil {
		return fmt.Errorf("usb: %w", err)
	}
	return os.Chmod(path, 0o640)
}

// folder finds or makes the clock's folder zeitnot/NAME and returns its
// path and entries.
func (x *exporter) folder(ctx context.Context) (string, []Entry, error) {
	board := hallBoard(config.ClubPath(x.o.ConfigPath, x.o.StateDir))
	name := FolderName(board, x.o.Hostname)
	x.r.Folder = Top + "/" + name
	e, n := find(x.root, Top)
	switch {
	case n > 1:
		return "", nil, fmt.Errorf("%s: %d entries named %s: the stick's file system is damaged", x.s.dev, n, Top)
	case n == 0:
		if err := x.s.Mkdir(ctx, Top); err != nil {
			return "", nil, err
		}
	case !e.Dir:
		return "", nil, fmt.Errorf("%s: %s: %w", x.s.dev, e.Name, ErrNotDir)
	default:
		x.r.Folder = e.Name + "/" + name
	}
	top := strings.SplitN(x.r.Folder, "/", 2)[0]
	entries, _, err := x.s.List(ctx, top)
	if err != nil {
		return "", nil, err
	}
	e, n = find(entries, name)
	switch {
	case n > 1:
		return "", nil, fmt.Errorf("%s: %d entries named %s/%s: the stick's file system is damaged", x.s.dev, n, top, name)
	case n == 0:
		if err := x.s.Mkdir(ctx, x.r.Folder); err != nil {
			return "", nil, err
		}
		return x.r.Folder, nil, nil
	case !e.Dir:
		return "", nil, fmt.Errorf("%s: %s/%s: %w", x.s.dev, top, e.Name, ErrNotDir)
	}
	x.r.Folder = top + "/" + e.Name
	entries, odd, err := x.s.List(ctx, x.r.Folder)
	if odd > 0 {
		x.problem("%d names in %s are not plain names: left alone", odd, x.r.Folder)
	}
	return x.r.Folder, entries, err
}

// cleanUp removes the temporary files an export cut short left in dir.
// One that shares its data with the file of its own name (a rename cut
// short can leave both names on the same clusters) stops the export with
// ErrDamaged, the stick untouched: removing or writing over either name
// would free the clusters of the other.
func (x *exporter) cleanUp(ctx context.Context, dir string, entries []Entry) ([]Entry, error) {
	var tmp, check []string
	for _, e := range entries {
		if e.Dir || !SafeName(e.Name) || !strings.HasSuffix(strings.ToLower(e.Name), TempSuffix) {
			continue
		}
		tmp = append(tmp, e.Name)
		check = append(check, join(dir, e.Name))
		if f, n := find(entries, e.Name[:len(e.Name)-len(TempSuffix)]); n == 1 && !f.Dir && SafeName(f.Name) {
			check = append(check, join(dir, f.Name))
		}
	}
	if len(tmp) == 0 {
		return entries, nil
	}
	first, err := x.s.FirstClusters(ctx, check...)
	if err != nil {
		return nil, err
	}
	var rm []string
	gone := map[string]bool{}
	for _, t := range tmp {
		c := first[join(dir, t)]
		if f, n := find(entries, t[:len(t)-len(TempSuffix)]); n == 1 && c != "" && first[join(dir, f.Name)] == c {
			// Removing or writing over either name would free the
			// other's data: nothing more is written to this stick.
			return nil, fmt.Errorf("%s: %s and %s share their data (a rename cut short): %w", x.s.dev, join(dir, t), join(dir, f.Name), ErrDamaged)
		}
		rm = append(rm, join(dir, t))
		gone[strings.ToLower(t)] = true
	}
	if len(rm) > 0 {
		if err := x.s.Remove(ctx, rm...); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	var kept []Entry
	for _, e := range entries {
		if !gone[strings.ToLower(e.Name)] {
			kept = append(kept, e)
		}
	}
	return kept, nil
}

// gamesOut writes the finished games the stick does not have yet, the
// game under way, the manifest and the status file.
func (x *exporter) gamesOut(ctx context.Context) error {
	dir, entries, err := x.folder(ctx)
	if err != nil {
		return err
	}
	if entries, err = x.cleanUp(ctx, dir, entries); err != nil {
		return err
	}
	var man Manifest
	if e, n := find(entries, ManifestFile); n == 1 && !e.Dir {
		data, err := x.s.Read(ctx, join(dir, e.Name), MaxManifest)
		switch {
		case errors.Is(err, ErrTooMuch):
			x.problem("%s: larger than %d bytes: read as empty", join(dir, e.Name), MaxManifest)
		case err != nil:
			return err
		default:
			var bad int
			man, bad = ParseManifest(data)
			if bad > 0 {
				x.problem("%s: %d lines not read", join(dir, e.Name), bad)
			}
		}
	}
	taken := map[string]bool{}
	for _, e := range entries {
		taken[strings.ToLower(e.Name)] = true
	}

	games, problems, err := finishedGames(x.o.StateDir, x.o.MaxGame)
	if err != nil {
		return fmt.Errorf("usb: the clock's games: %w", err)
	}
	for _, p := range problems {
		x.problem("%s", p)
	}
	var todo []game
	for _, g := range games {
		if _, ok := man.Has(x.host, g.hash); ok {
			x.r.Already++
		} else {
			todo = append(todo, g)
		}
	}
	manifestChanged := false
	defer func() { x.r.Left = len(todo) }()
	for len(todo) > 0 {
		g := todo[0]
		base, already, err := x.gameName(ctx, dir, g, taken)
		if err != nil {
			return err
		}
		if already {
			x.r.Already++
		} else {
			if err := x.putGame(ctx, dir, base, g); err != nil {
				return err
			}
			x.r.Saved++
		}
		taken[strings.ToLower(base+".log")] = true
		taken[strings.ToLower(base+".pgn")] = true
		man = append(man, ManifestEntry{Clock: x.host, Hash: g.hash, Name: base})
		manifestChanged = true
		todo = todo[1:]
	}
	if err := x.currentOut(ctx, dir, entries); err != nil {
		return err
	}
	if manifestChanged {
		if len(man) > maxManifestEntries {
			man = man[len(man)-maxManifestEntries:]
		}
		if err := x.put(ctx, dir, time.Time{}, []string{ManifestFile}, [][]byte{man.Format()}); err != nil {
			return err
		}
	}
	return x.put(ctx, dir, time.Time{}, []string{StatusFile}, [][]byte{x.status(len(games))})
}

// gameName picks the base name of a finished game's files: the plain one
// unless another file has it. A .log of that name that is this game
// (exported before the manifest could say so) means it is there already
// (already), or that its .pgn is to be written.
func (x *exporter) gameName(ctx context.Context, dir string, g game, taken map[string]bool) (string, bool, error) {
	date := ""
	if !g.modTime.IsZero() {
		date = g.modTime.Local().Format("2006-01-02")
	}
	for k := 1; k <= 99; k++ {
		base := gameBase(g.num, date, k)
		log, pgn := taken[strings.ToLower(base+".log")], taken[strings.ToLower(base+".pgn")]
		if !log && !pgn {
			return base, false, nil
		}
		if log {
			// The .log is renamed first: one that is this game was
			// written by an export cut short, with its .pgn or not.
			data, err := x.s.Read(ctx, join(dir, base+".log"), x.o.MaxGame)
			if err == nil && hashOf(data) == g.hash {
				return base, pgn, nil
			}
			if err != nil && !errors.Is(err, ErrTooMuch) && !errors.Is(err, ErrNotFound) {
				return "", false, err
			}
		}
	}
	return "", false, fmt.Errorf("usb: %s: no free name for game %s", dir, g.num)
}

// putGame writes one finished game: its clock log as it is on the clock,
// and as PGN.
func (x *exporter) putGame(ctx context.Context, dir, base string, g game) error {
	data, _, err := readGame(g.path, x.o.MaxGame)
	if err != nil {
		// Gone since it was listed: it is exported next time.
		x.problem("%v", err)
		return nil
	}
	if hashOf(data) != g.hash {
		x.problem("%s changed while it was exported: exported as it is now", g.path)
		g.hash = hashOf(data)
	}
	names := []string{base + ".log"}
	files := [][]byte{data}
	if pgn, err := x.pgn(filepath.Base(g.path), data, g.modTime); err != nil {
		x.problem("%s: no PGN: %v", g.path, err)
	} else {
		names = append(names, base+".pgn")
		files = append(files, pgn)
	}
	return x.put(ctx, dir, g.modTime, names, files)
}

// pgn writes a clock log as PGN (clocklog.WritePGN, docs/pgn.md), dated
// by when the clock last wrote it, with the names and the game id its
// notes give.
func (x *exporter) pgn(name string, data []byte, modTime time.Time) ([]byte, error) {
	l, err := clocklog.ReadLog(name, data)
	if err != nil {
		return nil, err
	}
	notes := journal.ReadNotes(data)
	g := clocklog.PGNGame{White: notes.White, Black: notes.Black, Extra: [][2]string{{"Annotator", x.o.Hostname}}}
	if !modTime.IsZero() {
		g.Date = modTime.Local().Format("2006.01.02")
	}
	if b := hallBoard(config.ClubPath(x.o.ConfigPath, x.o.StateDir)); b > 0 {
		g.Extra = append(g.Extra, [2]string{"Board", strconv.Itoa(b)})
	}
	if notes.ID != "" {
		g.Extra = append(g.Extra, [2]string{"ZeitnotGame", notes.ID})
	}
	var b bytes.Buffer
	if err := clocklog.WritePGN(l, &b, g); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// currentOut writes the game in the journal (under way, or the last one
// until the next starts), or takes away the files of an earlier one when
// the clock has none.
func (x *exporter) currentOut(ctx context.Context, dir string, entries []Entry) error {
	path, err := currentJournal(x.o.StateDir)
	if err != nil {
		return fmt.Errorf("usb: the clock's journal: %w", err)
	}
	var data []byte
	var modTime time.Time
	if path != "" {
		if data, modTime, err = readJournal(path); err != nil {
			x.problem("%v", err)
		}
	}
	l, _ := clocklog.Salvage(filepath.Base(path), bytes.NewReader(data))
	if path == "" || len(data) == 0 || l == nil {
		var stale []string
		for _, ext := range []string{".log", ".pgn"} {
			if e, n := find(entries, Current+ext); n == 1 && !e.Dir {
				stale = append(stale, join(dir, e.Name))
			}
		}
		if len(stale) > 0 {
			if err := x.s.Remove(ctx, stale...); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		return nil
	}
	names := []string{Current + ".log"}
	files := [][]byte{data}
	if pgn, err := x.pgn(filepath.Base(path), data, modTime); err == nil {
		names = append(names, Current+".pgn")
		files = append(files, pgn)
	}
	if err := x.put(ctx, dir, modTime, names, files); err != nil {
		return err
	}
	x.r.Current = true
	return nil
}
