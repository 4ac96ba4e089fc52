package coldplug

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWaitReady(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := Wait([]string{a, b}, time.Hour); p != nil || err != nil {
		t.Fatalf("Wait on two files there = %v, %v", p, err)
	}
	if p, err := Wait(nil, time.Hour); p != nil || err != nil {
		t.Fatalf("Wait on nothing = %v, %v", p, err)
	}
}

// start runs Wait in the background and returns what it returns.
func start(t *testing.T, paths []string) <-chan []Pending {
	t.Helper()
	done := make(chan []Pending, 1)
	go func() {
		p, err := Wait(paths, time.Hour)
		if err != nil {
			t.Error(err)
		}
		done <- p
	}()
	return done
}

// TestWaitWakesAtTheNode: Wait returns when the last node it waits for
// is made (as devtmpfs makes it), long before its timeout, and not while
// another file comes and goes or only one of its two nodes is there.
func TestWaitWakesAtTheNode(t *testing.T) {
	dir := t.TempDir()
	i2c, chip := filepath.Join(dir, "i2c-1"), filepath.Join(dir, "gpiochip0")
	done := start(t, []string{i2c, chip})
	os.WriteFile(filepath.Join(dir, "other"), nil, 0o600)
	os.Remove(filepath.Join(dir, "other"))
	os.WriteFile(chip, nil, 0o600)
	select {
	case p := <-done:
		t.Fatalf("Wait returned %v while %s was missing", p, i2c)
	default:
	}
	// Made under another name and renamed, as udev does with links.
	os.WriteFile(i2c+".tmp", nil, 0o600)
	os.Rename(i2c+".tmp", i2c)
	if p := <-done; p != nil {
		t.Fatalf("Wait reported %v after both nodes were made", p)
	}
}

// TestWaitDirectoryLater: a node whose directory is not there yet (a
// module not loaded, a PWM channel not exported) is found by the
// recheck once it is.
func TestWaitDirectoryLater(t *testing.T) {
	dir := t.TempDir()
	enable := filepath.Join(dir, "pwmchip0", "pwm0", "enable")
	done := start(t, []string{enable})
	if err := os.MkdirAll(filepath.Dir(enable), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(enable, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if p := <-done; p != nil {
		t.Fatalf("Wait reported %v after the channel was exported", p)
	}
}

func TestWaitTimesOut(t *testing.T) {
	dir := t.TempDir()
	there, missing := filepath.Join(dir, "i2c-0"), filepath.Join(dir, "i2c-1")
	os.WriteFile(there, nil, 0o600)
	p, err := Wait([]string{there, missing}, 20*time.Millisecond)
	if err != nil || len(p) != 1 || p[0].Path != missing || !strings.Contains(p[0].Err.Error(), "not there") {
		t.Fatalf("Wait with %s never made = %v, %v; want it alone, not there", missing, p, err)
	}
	if s := Summary(p); s != missing+": not there" {
		t.Errorf("Summary = %q", s)
	}
}

// The node a child process waits for, as another user (TestWaitForTheGroup).
const childEnv = "ZEITNOT_COLDPLUG_CHILD"

// TestWaitForTheGroup: a node already there but not yet open to the
// clock's user (devtmpfs makes it root's, mode 0600) is waited for until
// udev's rule gives it its group and mode. The wait runs in a child
// process as user nobody, as root may open anything.
func TestWaitForTheGroup(t *testing.T) {
	if node := os.Getenv(childEnv); node != "" {
		p := check([]string{node})
		if len(p) != 1 || !strings.Contains(p[0].Err.Error(), "no permission") {
			t.Fatalf("child: the node before udev's rule: %v, want no permission", p)
		}
		os.Stdout.WriteString("waiting\n")
		p, err := Wait([]string{node}, time.Hour)
		if err != nil || p != nil {
			t.Fatalf("child: Wait = %v, %v", p, err)
		}
		return
	}
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	node := filepath.Join(dir, "gpiochip0")
	if err := os.WriteFile(node, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		// The test binary, where user nobody may run it.
		bin := filepath.Join(dir, "coldplug.test")
		copyFile(t, bin)
		cmd = exec.Command(bin, "-test.run=^TestWaitForTheGroup$")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	} else {
		// Not root: this user may not open a root-owned 0600 file either,
		// which is the same case; the file is ours, so made unreadable.
		os.Chmod(node, 0)
		exe, _ := os.Executable()
		cmd = exec.Command(exe, "-test.run=^TestWaitForTheGroup$")
	}
	cmd.Env = append(os.Environ(), childEnv+"="+node)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child has found the node closed to it and waits.
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); line != "waiting\n" {
		rest, _ := io.ReadAll(r)
		cmd.Wait()
		t.Fatalf("child: %q %v\n%s", line, err, rest)
	}
	exited := make(chan error, 1)
	var text []byte
	go func() { text, _ = io.ReadAll(r); exited <- cmd.Wait() }()
	// udev's rule: the group, and mode 0660 (here 0666, nobody being in
	// no group of ours).
	if err := os.Chmod(node, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Fatalf("child: %v\n%s", err, text)
	}
}

func copyFile(t *testing.T, to string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
