package usb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
)

const folder = "zeitnot/zeitnot-ab12"

// TestExportGames: every finished game goes out as its log and as PGN,
// the game in the journal too, with the manifest and the status file;
// the displays say what happened; the state directory is not changed.
func TestExportGames(t *testing.T) {
	img := newImage(t, 8192)
	c := newClockState(t, 3, 20)
	d := newFakeDaemon(t)
	before := snapshot(t, c.dir)
	r := Export(context.Background(), open(t, img, nil), opts(t, c, d))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if r.Saved != 3 || r.Already != 0 || r.Left != 0 || !r.Current || r.Folder != folder {
		t.Errorf("result %+v", r)
	}
	got := files(t, img, folder)
	var pgns []string
	var wants [][]pgnreaders.Want
	read := func(name, date string, log []byte) {
		l, err := clocklog.ReadLog(name, log)
		if err != nil {
			t.Fatal(err)
		}
		notes := journal.ReadNotes(log)
		g := clocklog.PGNGame{Date: date, White: notes.White, Black: notes.Black, Extra: [][2]string{{"Annotator", "zeitnot-ab12"}}}
		if notes.ID != "" {
			g.Extra = append(g.Extra, [2]string{"ZeitnotGame", notes.ID})
		}
		pgns = append(pgns, got[name])
		wants = append(wants, []pgnreaders.Want{pgnreaders.Expect(t, l, g)})
	}
	for num, log := range c.games {
		base := num + "-2026-03-14"
		if got[base+".log"] != string(log) {
			t.Errorf("%s.log is not the game's log", base)
		}
		pgn := got[base+".pgn"]
		if !strings.Contains(pgn, `[Date "2026.03.14"]`) || !strings.Contains(pgn, `[TimeControl "300+2"]`) ||
			!strings.Contains(pgn, `[Annotator "zeitnot-ab12"]`) || !strings.Contains(pgn, "[WhiteClock ") {
			t.Errorf("%s.pgn tags:\n%s", base, pgn)
		}
		read(base+".pgn", "2026.03.14", log)
	}
	if got[Current+".log"] != string(c.cur) {
		t.Errorf("%s.log:\n%q\nwant the journal without its padding:\n%q", Current, got[Current+".log"], c.cur)
	}
	if !strings.Contains(got[Current+".pgn"], "4. clk ") {
		t.Errorf("%s.pgn:\n%s", Current, got[Current+".pgn"])
	}
	// The journal is dated by its file's time: now.
	date, _, _ := strings.Cut(strings.TrimPrefix(got[Current+".pgn"][strings.Index(got[Current+".pgn"], `[Date "`):], `[Date "`), `"`)
	read(Current+".pgn", date, c.cur)
	// The four PGN readers read every PGN on the stick as its log says.
	pgnreaders.CheckAll(t, pgns, wants)
	man, bad := ParseManifest([]byte(got[ManifestFile]))
	if len(man) != 3 || bad != 0 {
		t.Errorf("manifest %v (%d bad):\n%s", man, bad, got[ManifestFile])
	}
	st := got[StatusFile]
	for _, want := range []string{"zeitnot clock zeitnot-ab12", "version:  v1.2.3-test", "saved now: 3", "finished games on the clock: 3",
		"this stick's zeitnot.toml: none on the stick", "free: ", "damaged journals kept (game.log.damaged.N): 0",
		`"running": "none"`, "Effective settings", "profile = \"sim\""} {
		if !strings.Contains(st, want) {
			t.Errorf("status.txt has no %q:\n%s", want, st)
		}
	}
	for name := range got {
		if strings.HasSuffix(name, TempSuffix) {
			t.Errorf("%s left on the stick", name)
		}
	}
	if m := d.Messages(); len(m) != 2 || m[0] != "USB STICK: SAVING/DO NOT PULL IT OUT" || m[1] != "4 GAMES SAVED/PULL THE STICK" {
		t.Errorf("messages %q", m)
	}
	// A handful of requests, whatever the number of games: the daemon's
	// loop is not kept busy by a stick.
	if req := d.Requests(); len(req) != 3 {
		t.Errorf("requests to the daemon: %q", req)
	}
	if after := snapshot(t, c.dir); after != before {
		t.Errorf("the state directory changed:\n%s\nwas:\n%s", after, before)
	}
}

// TestExportOnlyNewGames: a second export writes only what the stick does
// not have; a game moved off the stick is not written again; deleting
// exported.txt writes everything again.
func TestExportOnlyNewGames(t *testing.T) {
	img := newImage(t, 8192)
	c := newClockState(t, 3, 10)
	o := opts(t, c, nil)
	if r := Export(context.Background(), open(t, img, nil), o); r.Err != nil || r.Saved != 3 {
		t.Fatalf("first: %+v", r)
	}
	c.addGame(t, "0004", gameLog(t, 12, 4))
	mt(t, img, "mdel", "::/"+folder+"/0001-2026-03-14.log", "::/"+folder+"/0001-2026-03-14.pgn")
	r := Export(context.Background(), open(t, img, nil), o)
	if r.Err != nil || r.Saved != 1 || r.Already != 3 {
		t.Fatalf("second: %+v", r)
	}
	got := files(t, img, folder)
	if _, ok := got["0001-2026-03-14.log"]; ok {
		t.Errorf("a game taken off the stick was written again")
	}
	if got["0004-2026-03-14.log"] != string(c.games["0004"]) {
		t.Errorf("the new game is not on the stick")
	}
	if r.Message() != "2 GAMES SAVED/PULL THE STICK" {
		t.Errorf("message %q", r.Message())
	}
	mt(t, img, "mdel", "::/"+folder+"/"+ManifestFile)
	r = Export(context.Background(), open(t, img, nil), o)
	if r.Err != nil || r.Saved != 1 || r.Already != 3 {
		// 0001 is written again; 0002 to 0004 are recognised by their
		// logs' hashes under their own names.
		t.Fatalf("without the manifest: %+v", r)
	}
	got = files(t, img, folder)
	if got["0001-2026-03-14.log"] != string(c.games["0001"]) {
		t.Errorf("0001 not written again without the manifest")
	}
	for name := range got {
		if strings.Contains(name, "-2.") {
			t.Errorf("%s: a game written twice", name)
		}
	}
}

// TestPulledMidExport: the stick goes at every step of an export in turn,
// before a program runs or halfway through a copy. No file with its own
// name is ever partial; the next export finishes the job, removes what was
// left half-written, and writes no game twice.
func TestPulledMidExport(t *testing.T) {
	c := newClockState(t, 3, 15)
	cfg := "[display]\nbrightness = 40\n"
	full := &countingRunner{}
	{
		img := newImage(t, 8192)
		putFile(t, img, ConfigFile, []byte(cfg))
		o := opts(t, c, newFakeDaemon(t))
		if r := Export(context.Background(), open(t, img, full.run), o); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	steps := full.calls
	if testing.Short() {
		steps = min(steps, 12)
	}
	for fail := 1; fail <= steps; fail++ {
		for _, partial := range []bool{false, true} {
			if partial && !strings.HasPrefix(full.log[fail-1], "mcopy") {
				continue
			}
			name := fmt.Sprintf("at %d (%s) partial=%v", fail, full.log[fail-1], partial)
			img := newImage(t, 8192)
			putFile(t, img, ConfigFile, []byte(cfg))
			d := newFakeDaemon(t)
			o := opts(t, c, d)
			r := Export(context.Background(), open(t, img, (&countingRunner{fail: fail, partial: partial}).run), o)
			if r.Err == nil {
				t.Fatalf("%s: no error", name)
			}
			if msg := d.Messages(); msg[len(msg)-1] != r.Message() || !strings.HasPrefix(r.Message(), "STICK ERROR/") {
				t.Errorf("%s: message %q", name, msg)
			}
			checkWhole(t, name, img, c)
			r = Export(context.Background(), open(t, img, nil), o)
			if r.Err != nil {
				t.Fatalf("%s: next export: %v", name, r.Err)
			}
			if r.Saved+r.Already != 3 || !r.Current {
				t.Errorf("%s: next export %+v", name, r)
			}
			got := checkWhole(t, name, img, c)
			for _, f := range []string{"0001-2026-03-14.log", "0002-2026-03-14.pgn", "0003-2026-03-14.log", Current + ".log", ManifestFile, StatusFile} {
				if _, ok := got[f]; !ok {
					t.Errorf("%s: %s not written by the next export", name, f)
				}
			}
			for f := range got {
				if strings.HasSuffix(f, TempSuffix) || strings.Contains(f, "-2.") {
					t.Errorf("%s: %s left after the next export", name, f)
				}
			}
		}
	}
}

// checkWhole fails the test if a file with its own name in the clock's
// folder is not whole.
func checkWhole(t *testing.T, name, img string, c *clockState) map[string]string {
	t.Helper()
	root := files(t, img, "")
	if _, ok := root[Top+"/"]; !ok {
		return nil
	}
	top := files(t, img, Top)
	if _, ok := top["zeitnot-ab12/"]; !ok {
		return nil
	}
	got := files(t, img, folder)
	for f, data := range got {
		if strings.HasSuffix(f, TempSuffix) {
			continue
		}
		num, _, _ := strings.Cut(f, "-")
		switch {
		case strings.HasSuffix(f, ".log") && c.games[num] != nil:
			if data != string(c.games[num]) {
				t.Errorf("%s: %s is not whole (%d bytes of %d)", name, f, len(data), len(c.games[num]))
			}
		case f == Current+".log":
			if data != string(c.cur) {
				t.Errorf("%s: %s is not whole", name, f)
			}
		case strings.HasSuffix(f, ".pgn"):
			if !strings.HasSuffix(data, "*\n\n") {
				t.Errorf("%s: %s is not whole:\n%s", name, f, data)
			}
		case f == ManifestFile:
			if _, bad := ParseManifest([]byte(data)); bad > 0 || !strings.HasPrefix(data, "# zeitnot") {
				t.Errorf("%s: %s is not whole", name, f)
			}
		case f == StatusFile:
			if !strings.Contains(data, "Effective settings") {
				t.Errorf("%s: %s is not whole", name, f)
			}
		}
	}
	return got
}

// TestStickFull: a stick that fills up keeps the games that fitted, whole,
// and says how many; nothing half-written keeps its name, and no .tmp is
// left.
func TestStickFull(t *testing.T) {
	img := newImage(t, 200) // the smallest FAT12, 180 KiB free
	c := newClockState(t, 0, 0)
	for i := 1; i <= 6; i++ {
		c.addGame(t, fmt.Sprintf("%04d", i), gameLog(t, 200, int64(i))) // about 30 KiB each
	}
	d := newFakeDaemon(t)
	r := Export(context.Background(), open(t, img, nil), opts(t, c, d))
	if !errors.Is(r.Err, ErrFull) {
		t.Fatalf("err %v, want a full stick", r.Err)
	}
	if r.Saved == 0 || r.Saved+r.Left != 6 {
		t.Errorf("result %+v", r)
	}
	want := fmt.Sprintf("STICK FULL/%d OF 6 GAMES SAVED/PULL THE STICK", r.Saved)
	if msg := d.Messages(); msg[len(msg)-1] != want {
		t.Errorf("message %q, want %q", msg[len(msg)-1], want)
	}
	got := checkWhole(t, "full", img, c)
	n := 0
	for f := range got {
		if strings.HasSuffix(f, ".log") && f != Current+".log" {
			n++
		}
		if strings.HasSuffix(f, TempSuffix) {
			t.Errorf("%s left on a full stick", f)
		}
	}
	if n != r.Saved {
		t.Errorf("%d logs on the stick, %d saved", n, r.Saved)
	}
}

// TestConfigRefused: a bad zeitnot.toml is not handed to the daemon; the
// displays say so, and the problems are on the stick, naming its lines.
func TestConfigRefused(t *testing.T) {
	img := newImage(t, 8192)
	putFile(t, img, ConfigFile, []byte("[display]\nbrightness = 500\ntenths_below = \"abc\"\n"))
	c := newClockState(t, 1, 5)
	d := newFakeDaemon(t)
	r := Export(context.Background(), open(t, img, nil), opts(t, c, d))
	if r.Err != nil || r.Config != ConfigRefused {
		t.Fatalf("%+v", r)
	}
	errs := files(t, img, "")[ErrorsFile]
	for _, want := range []string{"zeitnot.toml:2: display.brightness: ", "zeitnot.toml:3: display.tenths_below: ", "The clock keeps its config"} {
		if !strings.Contains(errs, want) {
			t.Errorf("%s has no %q:\n%s", ErrorsFile, want, errs)
		}
	}
	if strings.Contains(errs, "stage-") || strings.Contains(errs, os.TempDir()) {
		t.Errorf("the errors name the clock's copy of the file:\n%s", errs)
	}
	for _, req := range d.Requests() {
		if strings.HasPrefix(req, "import") {
			t.Errorf("a refused config was handed over: %q", req)
		}
	}
	if msg := d.Messages(); msg[len(msg)-1] != "2 GAMES SAVED/CONFIG REFUSED: SEE STICK/PULL THE STICK" {
		t.Errorf("message %q", msg[len(msg)-1])
	}
	if st := files(t, img, folder)[StatusFile]; !strings.Contains(st, "refused, the clock keeps its config") || !strings.Contains(st, "zeitnot.toml:2: display.brightness") {
		t.Errorf("status.txt:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(d.stateDir, "zeitnot.toml")); err == nil {
		t.Error("the daemon's state directory has a config")
	}
}

// TestConfigImported: a good zeitnot.toml is handed to the daemon, which
// imports it with config.Import; the next time it is unchanged; an errors
// file of an earlier, refused file goes.
func TestConfigImported(t *testing.T) {
	img := newImage(t, 8192)
	good := "[display]\nbrightness = 40\n\n[game]\ncontrol = \"fide-rapid-15\"\n"
	putFile(t, img, ConfigFile, []byte("brightness = \n"))
	c := newClockState(t, 0, 0)
	d := newFakeDaemon(t)
	o := opts(t, c, d)
	if r := Export(context.Background(), open(t, img, nil), o); r.Config != ConfigRefused {
		t.Fatalf("%+v", r)
	}
	if _, ok := files(t, img, "")[ErrorsFile]; !ok {
		t.Fatal("no errors file")
	}
	putFile(t, img, ConfigFile, []byte(good))
	r := Export(context.Background(), open(t, img, nil), o)
	if r.Err != nil || r.Config != ConfigImported {
		t.Fatalf("%+v", r)
	}
	imported, err := os.ReadFile(filepath.Join(d.stateDir, "zeitnot.toml"))
	if err != nil || string(imported) != good {
		t.Errorf("the daemon imported %q (%v)", imported, err)
	}
	if _, ok := files(t, img, "")[ErrorsFile]; ok {
		t.Error("the errors file of the refused config is still there")
	}
	if msg := d.Messages(); msg[len(msg)-1] != "1 GAME SAVED/CONFIG IMPORTED/PULL THE STICK" {
		t.Errorf("message %q", msg[len(msg)-1])
	}
	r = Export(context.Background(), open(t, img, nil), o)
	if r.Config != ConfigUnchanged || r.Message() != "1 GAME SAVED/CONFIG UNCHANGED/PULL THE STICK" {
		t.Errorf("again: %v, %q", r.Config, r.Message())
	}
	// A locked clock takes no config from a stick (one that did could lift
	// the lock): the displays and the stick say why and what the arbiter
	// does.
	d.locked.Store(true)
	putFile(t, img, ConfigFile, []byte(good+"[lock]\nlocked = false\n"))
	r = Export(context.Background(), open(t, img, nil), o)
	if r.Config != ConfigLocked || r.Message() != "1 GAME SAVED/CONFIG NOT IMPORTED: LOCKED/ARBITER: PIN, THEN STICK/PULL THE STICK" ||
		!strings.Contains(files(t, img, "")[ErrorsFile], "the clock is locked") {
		t.Errorf("locked: %v, %q", r.Config, r.Message())
	}
	if imported, _ := os.ReadFile(filepath.Join(d.stateDir, "zeitnot.toml")); string(imported) != good {
		t.Errorf("a locked clock imported %q", imported)
	}
	d.locked.Store(false)
	// Without a daemon to take it, a good config is not imported, and
	// the stick says why.
	o.Daemon = nil
	r = Export(context.Background(), open(t, img, nil), o)
	if r.Config != ConfigNotImported || !strings.Contains(files(t, img, "")[ErrorsFile], "daemon is not running") {
		t.Errorf("without a daemon: %v", r.Config)
	}
}

// TestOddNames: what stands in for a link or is not what it should be is
// refused or left alone, and said.
func TestOddNames(t *testing.T) {
	t.Run("config is a folder", func(t *testing.T) {
		img := newImage(t, 8192)
		mt(t, img, "mmd", "::/ZEITNOT.TOML")
		r := Export(context.Background(), open(t, img, nil), opts(t, newClockState(t, 0, 0), nil))
		if r.Err != nil || r.Config != ConfigRefused || !strings.Contains(strings.Join(r.ConfigErrors, ""), "a folder, not a file") {
			t.Errorf("%+v", r)
		}
	})
	for _, link := range []string{"!<symlink>\xff\xfe/\x00e\x00t\x00c\x00", "IntxLNK\x01/etc/passwd", "XSym\n0011\nabc\n"} {
		t.Run("config is a link", func(t *testing.T) {
			img := newImage(t, 8192)
			putFile(t, img, ConfigFile, []byte(link))
			r := Export(context.Background(), open(t, img, nil), opts(t, newClockState(t, 0, 0), nil))
			if r.Err != nil || r.Config != ConfigRefused || !strings.Contains(strings.Join(r.ConfigErrors, ""), "a symbolic link made by") {
				t.Errorf("%+v", r)
			}
		})
	}
	t.Run("config too large", func(t *testing.T) {
		img := newImage(t, 8192)
		putFile(t, img, ConfigFile, bytes.Repeat([]byte("# padding\n"), maxConfig/10+1))
		r := Export(context.Background(), open(t, img, nil), opts(t, newClockState(t, 0, 0), nil))
		if r.Err != nil || r.Config != ConfigRefused || !strings.Contains(strings.Join(r.ConfigErrors, ""), "larger than") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("zeitnot is a file", func(t *testing.T) {
		img := newImage(t, 8192)
		putFile(t, img, "zeitnot", []byte("not a folder"))
		r := Export(context.Background(), open(t, img, nil), opts(t, newClockState(t, 1, 3), nil))
		if !errors.Is(r.Err, ErrNotDir) || !strings.HasPrefix(r.Message(), "STICK ERROR/") {
			t.Errorf("%+v", r)
		}
		if files(t, img, "")["zeitnot"] != "not a folder" {
			t.Error("the file named zeitnot was changed")
		}
	})
	t.Run("odd names in the folder", func(t *testing.T) {
		img := newImage(t, 8192)
		c := newClockState(t, 1, 3)
		mt(t, img, "mmd", "::/zeitnot", "::/"+folder, "::/"+folder+"/0001-2026-03-14.log")
		odd := map[string]string{
			"notes über.txt":      "mine",
			"status.txt.bak":      "mine",
			"x[1].tmp":            "(a wildcard: not read)",
			"0002 copy.tmp":       "not ours: a space",
			"current-game.pgn ~1": "mine",
		}
		for n, data := range odd {
			putFile(t, img, folder+"/"+n, []byte(data))
		}
		r := Export(context.Background(), open(t, img, nil), opts(t, c, nil))
		if r.Err != nil || r.Saved != 1 {
			t.Fatalf("%+v", r)
		}
		got := files(t, img, folder)
		for n, data := range odd {
			if got[n] != data {
				t.Errorf("%s: %q, want it left alone", n, got[n])
			}
		}
		if _, ok := got["0001-2026-03-14.log/"]; !ok {
			t.Error("the folder with a game's name was touched")
		}
		if got["0001-2026-03-14-2.log"] != string(c.games["0001"]) {
			t.Errorf("the game is not beside the folder that has its name: %v", keys(got))
		}
	})
	// The manifest's temporary copy was left on the stick when a folder
	// had the manifest's name.
	t.Run("exported.txt is a folder", func(t *testing.T) {
		img := newImage(t, 8192)
		mt(t, img, "mmd", "::/zeitnot", "::/"+folder, "::/"+folder+"/exported.txt")
		r := Export(context.Background(), open(t, img, nil), opts(t, newClockState(t, 1, 3), nil))
		if r.Err == nil {
			t.Errorf("no error with a folder named exported.txt: %+v", r)
		}
		for n := range files(t, img, folder) {
			if strings.HasSuffix(n, TempSuffix) {
				t.Errorf("%s left on the stick", n)
			}
		}
	})
	t.Run("two entries of one name", func(t *testing.T) {
		entries, _, _ := ParseListing("", "::/zeitnot.toml\n::/ZEITNOT.TOML\n")
		if _, n := find(entries, ConfigFile); n != 2 {
			t.Errorf("found %d", n)
		}
	})
	t.Run("device is a link", func(t *testing.T) {
		img := newImage(t, 200)
		link := filepath.Join(t.TempDir(), "sda1")
		os.Symlink(img, link)
		if _, err := OpenStick(link, true, nil); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("err %v", err)
		}
		if _, err := OpenStick(img, false, nil); err == nil || !strings.Contains(err.Error(), "not a block device") {
			t.Errorf("err %v", err)
		}
	})
}

func keys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// TestNotFAT: a stick without FAT (exFAT, NTFS, nothing) is reported, and
// nothing is written to it.
func TestNotFAT(t *testing.T) {
	needMtools(t)
	img := filepath.Join(t.TempDir(), "exfat.img")
	data := make([]byte, 1<<20)
	copy(data[3:], "EXFAT   ")
	os.WriteFile(img, data, 0o644)
	d := newFakeDaemon(t)
	r := Export(context.Background(), open(t, img, nil), opts(t, newClockState(t, 1, 3), d))
	if !errors.Is(r.Err, ErrNotFAT) {
		t.Fatalf("err %v", r.Err)
	}
	if msg := d.Messages(); msg[len(msg)-1] != "STICK NOT READABLE/FORMAT IT FAT32" {
		t.Errorf("message %q", msg)
	}
	after, _ := os.ReadFile(img)
	if !bytes.Equal(after, data) {
		t.Error("the stick was written")
	}
}

// TestSharedClusters: a .tmp that shares its first cluster with the file
// of its own name (a rename cut short) stops the export before anything is
// removed or written: either would free the other's data.
func TestSharedClusters(t *testing.T) {
	img := newImage(t, 8192)
	c := newClockState(t, 1, 3)
	o := opts(t, c, nil)
	if r := Export(context.Background(), open(t, img, nil), o); r.Err != nil {
		t.Fatal(r.Err)
	}
	putFile(t, img, folder+"/status.txt.tmp", []byte("x"))
	putFile(t, img, folder+"/exported.txt.tmp", []byte("y"))
	before := files(t, img, folder)
	var changed []string
	fake := func(ctx context.Context, prog string, args []string, w io.Writer) error {
		switch prog {
		case "mshowfat":
			// status.txt.tmp shares status.txt's clusters; the other
			// does not.
			for _, a := range args[2:] {
				c := "9"
				if strings.HasSuffix(a, "exported.txt.tmp") {
					c = "20"
				}
				fmt.Fprintf(w, "%s <%s-%s>\n", a, c, c)
			}
			return nil
		case "mdel", "mcopy", "mren", "mmd":
			changed = append(changed, prog+" "+strings.Join(args[2:], " "))
		}
		return ExecRunner(ctx, prog, args, w)
	}
	r := Export(context.Background(), open(t, img, fake), o)
	if !errors.Is(r.Err, ErrDamaged) || !strings.Contains(r.Err.Error(), "status.txt.tmp and "+folder+"/STATUS.TXT share their data") {
		t.Fatalf("err %v", r.Err)
	}
	if len(changed) > 0 {
		t.Errorf("the damaged stick was written: %q", changed)
	}
	if after := files(t, img, folder); len(after) != len(before) {
		t.Errorf("files changed")
	}
	if r.Message() != "STICK DAMAGED/CHECK IT ON A COMPUTER/NOTHING LOST ON THE CLOCK" {
		t.Errorf("message %q", r.Message())
	}
}
