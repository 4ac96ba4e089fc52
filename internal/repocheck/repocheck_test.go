package repocheck

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProblem(t *testing.T) {
	pe := make([]byte, HeadSize)
	copy(pe, "MZ")
	pe[0x3c] = 0x38
	copy(pe[0x38:], "PE\x00\x00")
	for _, c := range []struct {
		name string
		size int64
		head string
		want string // a part of the problem, or "" for none
	}{
		{"engine/clock/clock.go", 4000, "package clock", ""},
		{"cmd/zeitnot/zeitnot", 19_500_000, "\x7fELF\x02\x01\x01", "ELF"},
		{"tool", 1000, "\xcf\xfa\xed\xfe\x07\x00\x00\x01", "Mach-O"},
		{"tool.bin", 1000, string(pe), "PE"},
		{"README.md", 1000, "MZ is how a DOS program starts; this is text, long enough for the header's place", ""},
		{"hall/hall.test", 10, "whatever", ".test"},
		{"drivers/x/x.o", 10, "", ".o"},
		{"libx.a", 10, "!<arch>\n", ".a"},
		{"cpu.prof", 10, "", ".prof"},
		{"docs/hall/hall.png", 3 << 20, "\x89PNG", ""},
		{"hardware/enclosure-a.png", 3 << 20, "\x89PNG", "over the"},
		{"docs/big.md", 2 << 20, "# big", "over the"},
		{"engine/testdata/corpus.txt", MaxSize, "a", ""},
		{"engine/testdata/corpus.txt", MaxSize + 1, "a", "over the"},
	} {
		got := Problem(c.name, c.size, []byte(c.head))
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("Problem(%q, %d) = %q, want %q", c.name, c.size, got, c.want)
		}
	}
}

// TestTrackedFiles: no tracked file of this repository is a build output
// or too big.
func TestTrackedFiles(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git command")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	top, err := exec.CommandContext(ctx, git, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	root := strings.TrimSpace(string(top))
	cmd := exec.CommandContext(ctx, git, "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	names := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(names) < 100 {
		t.Fatalf("git ls-files listed %d files: not this repository", len(names))
	}
	for _, name := range names {
		fi, err := os.Lstat(filepath.Join(root, name))
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, a link or a submodule
		}
		f, err := os.Open(filepath.Join(root, name))
		if err != nil {
			t.Error(err)
			continue
		}
		head := make([]byte, HeadSize)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if p := Problem(name, fi.Size(), head[:n]); p != "" {
			t.Error(p)
		}
	}
}

// Read finds the repository's top folder from a package's folder.
func TestRead(t *testing.T) {
	if got := Read(t, "go.mod"); !strings.HasPrefix(got, "module github.com/zeitnot/zeitnot\n") {
		t.Errorf("Read(go.mod) = %.40q", got)
	}
}
