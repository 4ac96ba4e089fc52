package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/usb"
)

// The USB stick check (appliance/usb, systemd/zeitnot-usb@.service): with a
// game under way on the clock, FAT images made here are put into the
// running machine as USB sticks (QMP device_add usb-storage on a qemu-xhci
// controller) and taken out again (device_del), and what udev, the unit
// and `zeitnot usb` did is read back from the images:
//
//  1. a stick with a bad zeitnot.toml: the finished games, the game under
//     way and status.txt on it, the config refused with its problems
//     beside it, the clock's game not disturbed;
//  2. a stick with a good zeitnot.toml: handed to the daemon and imported
//     (SKIP while the daemon does not know the "import" request);
//  3. a stick pulled out in the middle of an export of 30 games: no file
//     with its own name half-written; put in again, the export finishes.

// usbArgs are the QEMU arguments the check needs: a QMP socket and a USB
// controller.
// usbArgs add the USB controller the sticks go on; the QMP socket they
// are attached through is the machine's own (virtBoot's qmp.sock).
func usbArgs() []string {
	return []string{"-device", "qemu-xhci,id=xhci"}
}

func qmpPath(work string) string {
	p, _ := filepath.Abs(filepath.Join(work, "qmp.sock"))
	return p
}

// qmpConn is a QEMU machine protocol connection.
type qmpConn struct {
	conn net.Conn
	r    *bufio.Reader
}

func dialQMP(path string) (*qmpConn, error) {
	conn, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		return nil, err
	}
	q := &qmpConn{conn: conn, r: bufio.NewReader(conn)}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := q.r.ReadString('\n'); err != nil { // the greeting
		conn.Close()
		return nil, fmt.Errorf("QMP greeting: %v", err)
	}
	if err := q.do("qmp_capabilities", nil); err != nil {
		conn.Close()
		return nil, err
	}
	return q, nil
}

// do runs one command and waits for its answer, passing over events.
func (q *qmpConn) do(cmd string, args any) error {
	_, err := q.call(cmd, args)
	return err
}

// hmp runs a human monitor command ("info usb") and returns its text.
func (q *qmpConn) hmp(line string) (string, error) {
	b, err := q.call("human-monitor-command", map[string]any{"command-line": line})
	var text string
	if err == nil {
		err = json.Unmarshal(b, &text)
	}
	return text, err
}

// call runs one command and returns its answer's return value.
func (q *qmpConn) call(cmd string, args any) (json.RawMessage, error) {
	req := map[string]any{"execute": cmd}
	if args != nil {
		req["arguments"] = args
	}
	b, _ := json.Marshal(req)
	q.conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := q.conn.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("QMP %s: %v", cmd, err)
	}
	for {
		line, err := q.r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("QMP %s: %v", cmd, err)
		}
		var ans struct {
			Return json.RawMessage `json:"return"`
			Error  *struct {
				Desc string `json:"desc"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(line), &ans) != nil {
			continue
		}
		if ans.Error != nil {
			return nil, fmt.Errorf("QMP %s: %s", cmd, ans.Error.Desc)
		}
		if ans.Return != nil {
			return ans.Return, nil
		}
	}
}

func (q *qmpConn) close() { q.conn.Close() }

// attach puts the image into the machine as a USB stick named id.
func (q *qmpConn) attach(id, img string) error {
	if err := q.do("blockdev-add", map[string]any{"driver": "raw", "node-name": id,
		"file": map[string]any{"driver": "file", "filename": img}}); err != nil {
		return err
	}
	return q.do("device_add", map[string]any{"driver": "usb-storage", "id": id, "drive": id, "bus": "xhci.0", "removable": true})
}

// pull takes the stick out at once, as a hand would, and frees its image.
func (q *qmpConn) pull(id string) error {
	if err := q.do("device_del", map[string]any{"id": id}); err != nil {
		return err
	}
	var err error
	for i := 0; i < 50; i++ {
		if err = q.do("blockdev-del", map[string]any{"node-name": id}); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

// makeStick makes a FAT image of 32 MiB holding files (path: contents).
func makeStick(ctx context.Context, work, name string, files map[string]string) (string, error) {
	img, _ := filepath.Abs(filepath.Join(work, name+".img"))
	os.Remove(img)
	if out, err := command(ctx, 30*time.Second, "mkfs.fat", "-n", "STICK", "-C", img, "32768"); err != nil {
		return "", fmt.Errorf("mkfs.fat: %v: %s", err, out)
	}
	for p, data := range files {
		local := filepath.Join(work, "stick-file")
		os.WriteFile(local, []byte(data), 0o644)
		if out, err := command(ctx, 30*time.Second, "mcopy", "-o", "-i", img, local, "::/"+p); err != nil {
			return "", fmt.Errorf("mcopy %s: %v: %s", p, err, out)
		}
	}
	return img, nil
}

// stickFiles reads every file of the folder dir of the image, by names in
// lower case (a renamed 8.3 name is in capitals: STATUS.TXT).
func stickFiles(ctx context.Context, img, dir string) (map[string]string, error) {
	out, err := command(ctx, 30*time.Second, "mdir", "-b", "-a", "-i", img, "::/"+dir)
	if err != nil {
		return nil, fmt.Errorf("mdir ::/%s: %v: %s", dir, err, out)
	}
	m := map[string]string{}
	prefix := "::/" + dir + "/"
	if dir == "" {
		prefix = "::/"
	}
	for _, line := range strings.Split(out, "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
		if !ok || name == "" {
			continue
		}
		if strings.HasSuffix(name, "/") {
			m[strings.ToLower(name)] = ""
			continue
		}
		data, err := command(ctx, 30*time.Second, "mtype", "-i", img, prefix+name)
		if err != nil {
			return nil, fmt.Errorf("mtype %s%s: %v", prefix, name, err)
		}
		m[strings.ToLower(name)] = data
	}
	return m, nil
}

// usbGame is a finished game's clock log as the check puts it into the
// clock's games/ folder: 300+2, n moves.
func usbGame(n int) string {
	var b strings.Builder
	b.WriteString("format 1\ncontrol 300+2\n0 start\n")
	at := 0
	for i := 0; i < 8+n%5; i++ {
		at += 1500 + (n*37+i*91)%2000
		side := "white"
		if i%2 == 1 {
			side = "black"
		}
		fmt.Fprintf(&b, "%d press %s\n", at, side)
	}
	return b.String()
}

// usbGamesScript writes the games usbGame(from) to usbGame(to) as
// games/9NNN.log in the guest, as the journal would archive them (a loop:
// the shell's console takes lines of at most 4095 bytes).
func usbGamesScript(from, to int) string {
	return fmt.Sprintf(`install -d -o zeitnot -g zeitnot -m 0750 /var/lib/zeitnot/games && for i in $(seq %d %d); do `+
		`n=$(printf '9%%03d' $i); { printf 'format 1\ncontrol 300+2\n0 start\n'; t=0; `+
		`for k in $(seq 1 $((8 + i %% 5))); do t=$((t + 1500 + (i * 37 + (k - 1) * 91) %% 2000)); `+
		`if [ $((k %% 2)) = 1 ]; then s=white; else s=black; fi; echo "$t press $s"; done; } > /var/lib/zeitnot/games/$n.log; done && `+
		`chown zeitnot:zeitnot /var/lib/zeitnot/games/9*.log && chmod 0640 /var/lib/zeitnot/games/9*.log`, from, to)
}

// usbCheck runs the three sticks.
func usbCheck(ctx context.Context, rep *report, run runFunc, status statusFunc, work string, board int) {
	fmt.Println("== USB sticks")
	q, err := dialQMP(qmpPath(work))
	if !rep.check("usb: QMP", err == nil, "%s", errString(err, "")) {
		return
	}
	defer q.close()
	out, code := run("command -v mcopy mdir mtype mren mdel mmd mshowfat | wc -l", 10*time.Second)
	if !rep.check("usb: mtools on the clock", code == 0 && strings.TrimSpace(out) == "7", "%s", oneLine(out)) {
		return
	}
	// The clock's folder: board-N with a [hall] board, else its hostname
	// (appliance/usb.FolderName).
	host, _ := run("cat /proc/sys/kernel/hostname", 10*time.Second)
	folder := "zeitnot/" + usb.FolderName(board, strings.TrimSpace(host))

	// Three finished games, put where the journal archives them.
	games := map[string]string{}
	for i := 1; i <= 3; i++ {
		games[fmt.Sprintf("9%03d", i)] = usbGame(i)
	}
	if out, code := run(usbGamesScript(1, 3), 30*time.Second); !rep.check("usb: three finished games on the clock", code == 0, "%s", oneLine(out)) {
		return
	}
	// A game under way, running.
	s, _, err := status()
	for i := 0; i < 3 && err == nil && s.Running == "none"; i++ {
		button := "right"
		if s.Started && s.Paused {
			button = "pause"
		}
		run("zeitnot press "+button, 15*time.Second)
		s, _, err = status()
	}
	if err == nil && s.Running != "none" && s.White.Moves+s.Black.Moves == 0 {
		run("sleep 1; zeitnot press "+leverOf(s, s.Running), 15*time.Second)
		s, _, err = status()
	}
	if !rep.check("usb: a game running, with a move", err == nil && s.Running != "none" && s.White.Moves+s.Black.Moves > 0, "%s", errString(err, s.String())) {
		return
	}
	restarts, _ := run("systemctl show -p NRestarts --value zeitnot.service", 10*time.Second)

	// export puts the image in as id, waits until the unit has ended its
	// export (or, with pullAfter, pulls the stick that long after it
	// began), and takes it out. It returns the unit's journal.
	export := func(id, img string, pullAfter time.Duration) (string, bool) {
		run("systemctl reset-failed 'zeitnot-usb@*' 2>/dev/null; true", 10*time.Second)
		if err := q.attach(id, img); !rep.check("usb: "+id+" put in", err == nil, "%s", errString(err, "")) {
			return "", false
		}
		wait := "for i in $(seq 1 600); do d=$(ls /sys/block | grep '^sd' | head -n 1); " +
			"[ -n \"$d\" ] && s=$(systemctl show -p ActiveState --value zeitnot-usb@$d.service) && " +
			"case $s in active|failed) echo $d $s; exit 0;; activating) [ %q = run ] && { echo $d $s; exit 0; };; esac; sleep 0.5; done; echo none timeout; exit 1"
		mode := "end"
		if pullAfter > 0 {
			mode = "run"
		}
		out, code := run(fmt.Sprintf(wait, mode), 330*time.Second)
		f := strings.Fields(out)
		dev := "sda"
		if len(f) == 2 {
			dev = f[0]
		}
		t := time.Now()
		ok := rep.check("usb: "+id+": zeitnot-usb@"+dev+" started by udev", code == 0, "%s", oneLine(out))
		if pullAfter > 0 {
			time.Sleep(pullAfter)
			mid, _ := run("systemctl show -p ActiveState --value zeitnot-usb@"+dev+".service", 10*time.Second)
			rep.check("usb: "+id+": pulled out in the middle of the export", strings.TrimSpace(mid) == "activating",
				"the unit was %s %.1fs after it started", strings.TrimSpace(mid), time.Since(t).Seconds())
		}
		if err := q.pull(id); !rep.check("usb: "+id+" pulled out", err == nil, "%s", errString(err, "")) {
			return "", false
		}
		// An export that ran to the end leaves the unit active until the
		// stick goes, then inactive; one cut short, failed.
		want := "inactive"
		if pullAfter > 0 {
			want = "failed"
		}
		out, code = run("for i in $(seq 1 60); do s=$(systemctl show -p ActiveState --value zeitnot-usb@"+dev+".service); "+
			"case $s in inactive|failed) echo $s; exit 0;; esac; sleep 0.5; done; echo $s; exit 1", 60*time.Second)
		rep.check("usb: "+id+": the unit stopped with the stick", code == 0 && strings.TrimSpace(out) == want, "%s, want %s", oneLine(out), want)
		journal, _ := run("journalctl -u zeitnot-usb@"+dev+".service -o cat --no-pager | tail -n 25", 30*time.Second)
		fmt.Println(indent(journal))
		return journal, ok
	}

	// 1. Games out, a bad config refused.
	img, err := makeStick(ctx, work, "stick1", map[string]string{"zeitnot.toml": "profile = \"sim\"\n[display]\nbrightness = 500\n"})
	if !rep.check("usb: stick1 made", err == nil, "%s", errString(err, img)) {
		return
	}
	journal, ok := export("stick1", img, 0)
	if !ok {
		return
	}
	rep.check("usb: stick1: the displays were told", strings.Contains(journal, "usb: display: ") && strings.Contains(journal, "PULL THE STICK"), "%s", lastLine(journal, "display: "))
	files, err := stickFiles(ctx, img, folder)
	if rep.check("usb: stick1: "+folder+" read", err == nil, "%s", errString(err, fmt.Sprint(len(files), " files"))) {
		var bad []string
		for num, log := range games {
			found := false
			for name, data := range files {
				if strings.HasPrefix(name, num+"-") && strings.HasSuffix(name, ".log") {
					found = data == log
				}
				if strings.HasPrefix(name, num+"-") && strings.HasSuffix(name, ".pgn") &&
					!(strings.Contains(data, `[TimeControl "300+2"]`) && strings.Contains(data, "1. clk 0:05:0")) {
					bad = append(bad, name+": not the game's PGN")
				}
			}
			if !found {
				bad = append(bad, num+": no log, or not the game's")
			}
		}
		if !strings.Contains(files["current-game.log"], " start") || !strings.Contains(files["current-game.pgn"], "[TimeControl ") {
			bad = append(bad, "current-game.log/.pgn")
		}
		if !strings.Contains(files["status.txt"], "zeitnot clock "+strings.TrimSpace(host)) || !strings.Contains(files["status.txt"], "Effective settings") {
			bad = append(bad, "status.txt")
		}
		if strings.Count(files["exported.txt"], "\n"+strings.TrimSpace(host)+" ") != 3 {
			bad = append(bad, "exported.txt")
		}
		rep.check("usb: stick1: 3 finished games as .log and .pgn, the game under way, status.txt, exported.txt", len(bad) == 0, "%v", bad)
	}
	root, _ := stickFiles(ctx, img, "")
	rep.check("usb: stick1: bad config refused, its problems beside it", strings.Contains(root["zeitnot-errors.txt"], "zeitnot.toml:3: display.brightness: "),
		"%s", oneLine(root["zeitnot-errors.txt"]))
	out, _ = run("grep -c 'brightness = 500' /var/lib/zeitnot/zeitnot.toml", 10*time.Second)
	rep.check("usb: stick1: the clock keeps its config", strings.TrimSpace(out) == "0", "%s", oneLine(out))
	after, _, err := status()
	r2, _ := run("systemctl show -p NRestarts --value zeitnot.service", 10*time.Second)
	rep.check("usb: stick1: the game ran on, undisturbed", err == nil && after.Running == s.Running && !after.Paused &&
		after.White.Moves == s.White.Moves && after.Black.Moves == s.Black.Moves && strings.TrimSpace(r2) == strings.TrimSpace(restarts),
		"before %s; after %s; restarts %s -> %s", s, errString(err, after.String()), strings.TrimSpace(restarts), strings.TrimSpace(r2))

	// 2. A good config, handed to the daemon.
	good := "profile = \"sim\"\n[display]\nbrightness = 42\n"
	img, err = makeStick(ctx, work, "stick2", map[string]string{"zeitnot.toml": good})
	if !rep.check("usb: stick2 made", err == nil, "%s", errString(err, img)) {
		return
	}
	_, ok = export("stick2", img, 0)
	if !ok {
		return
	}
	out, _ = run("cat /var/lib/zeitnot/zeitnot.toml", 10*time.Second)
	root, _ = stickFiles(ctx, img, "")
	switch {
	case strings.Contains(out, "brightness = 42"):
		rep.check("usb: stick2: good config imported", true, "%s", oneLine(out))
	case strings.Contains(root["zeitnot-errors.txt"], `unknown command "import"`):
		fmt.Printf("SKIP  usb: stick2: good config imported: the daemon has no \"import\" request yet (%s)\n", oneLine(root["zeitnot-errors.txt"]))
	default:
		rep.check("usb: stick2: good config imported", false, "state: %s; stick: %s", oneLine(out), oneLine(root["zeitnot-errors.txt"]))
	}
	if strings.Contains(out, "brightness = 42") {
		// The imported config has no [hall] board: the clock's folder is
		// its hostname's from now on.
		folder = "zeitnot/" + usb.FolderName(0, strings.TrimSpace(host))
	}

	// 3. Pulled out in the middle of an export of many games; put in again.
	for i := 4; i <= 30; i++ {
		games[fmt.Sprintf("9%03d", i)] = usbGame(i)
	}
	if out, code := run(usbGamesScript(4, 30), 60*time.Second); !rep.check("usb: 30 finished games on the clock", code == 0, "%s", oneLine(out)) {
		return
	}
	img, err = makeStick(ctx, work, "stick3", nil)
	if !rep.check("usb: stick3 made", err == nil, "%s", errString(err, img)) {
		return
	}
	if _, ok = export("stick3", img, 3*time.Second); !ok {
		return
	}
	whole := func(name string) {
		files, err := stickFiles(ctx, img, folder)
		if err != nil && strings.Contains(err.Error(), "not found") {
			rep.check(name, true, "no folder yet")
			return
		}
		var bad []string
		n := 0
		for f, data := range files {
			num, _, _ := strings.Cut(f, "-")
			switch {
			case strings.HasSuffix(f, ".tmp"):
			case strings.HasSuffix(f, ".log") && games[num] != "":
				n++
				if data != games[num] {
					bad = append(bad, f)
				}
			case strings.HasSuffix(f, ".pgn") && !strings.HasSuffix(data, "*\n\n"):
				bad = append(bad, f)
			}
		}
		rep.check(name, err == nil && len(bad) == 0, "%d games' logs whole; not whole: %v %s", n, bad, errString(err, ""))
	}
	whole("usb: stick3 pulled early: every file with its own name whole")
	if _, ok = export("stick3", img, 0); !ok {
		return
	}
	whole("usb: stick3 put in again: every file whole")
	files, err = stickFiles(ctx, img, folder)
	var missing, left []string
	for num := range games {
		found := 0
		for f := range files {
			if strings.HasPrefix(f, num+"-") && (strings.HasSuffix(f, ".log") || strings.HasSuffix(f, ".pgn")) {
				found++
			}
		}
		if found != 2 {
			missing = append(missing, num)
		}
	}
	for f := range files {
		if strings.HasSuffix(f, ".tmp") || regexp.MustCompile(`-2\.(log|pgn)$`).MatchString(f) {
			left = append(left, f)
		}
	}
	rep.check("usb: stick3 put in again: the export finished, nothing twice, no .tmp left", err == nil && len(missing) == 0 && len(left) == 0,
		"missing %v, left %v %s", missing, left, errString(err, ""))
}

// lastLine returns the last line of text holding marker.
func lastLine(text, marker string) string {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], marker) {
			return strings.TrimSpace(lines[i])
		}
	}
	return ""
}
