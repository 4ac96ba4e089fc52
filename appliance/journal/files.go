package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// genName is the file name of the journal of generation g: game.log, or
// game-G.log when the names before it are taken by files that could not be
// moved aside.
func genName(g int) string {
	if g == 0 {
		return File
	}
	return "game-" + strconv.Itoa(g) + ".log"
}

// parseGen returns the generation of a journal's file name.
func parseGen(name string) (int, bool) {
	if name == File {
		return 0, true
	}
	s, ok := strings.CutPrefix(name, "game-")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, ".log")
	if !ok {
		return 0, false
	}
	g, err := strconv.Atoi(s)
	if err != nil || g < 1 || strconv.Itoa(g) != s {
		return 0, false
	}
	return g, true
}

// keptName is the name of the n-th file kept aside as kind.
func keptName(kind string, n int) string { return File + "." + kind + "." + strconv.Itoa(n) }

// kept lists the numbers of the files kept aside as kind in dir, oldest
// first. The single game.log.damaged of earlier versions is number 0.
func kept(dir, kind string) ([]int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var nums []int
	for _, e := range ents {
		if e.Name() == File+"."+kind {
			nums = append(nums, 0)
		} else if s, ok := strings.CutPrefix(e.Name(), File+"."+kind+"."); ok {
			if n, err := strconv.Atoi(s); err == nil && n > 0 && strconv.Itoa(n) == s {
				nums = append(nums, n)
			}
		}
	}
	sort.Ints(nums)
	return nums, nil
}

func keptPath(dir, kind string, n int) string {
	if n == 0 {
		return filepath.Join(dir, File+"."+kind)
	}
	return filepath.Join(dir, keptName(kind, n))
}

// keepAside gives the file name in dir the next name of kind, never over
// another file: with link, as a second name (the file stays at name too),
// else instead of name. It works on anything: a file it could not read, a
// directory, a link. It returns the new name.
func keepAside(dir, name, kind string, link bool) (string, error) {
	src := filepath.Join(dir, name)
	var err error
	for try := 0; try < 10; try++ {
		var nums []int
		if nums, err = kept(dir, kind); err != nil {
			return "", err
		}
		n := 1
		if len(nums) > 0 {
			n = nums[len(nums)-1] + 1
		}
		dst := keptName(kind, n)
		if link {
			err = os.Link(src, filepath.Join(dir, dst))
		} else {
			err = renameNoReplace(src, filepath.Join(dir, dst))
		}
		if err == nil {
			return dst, syncDir(dir)
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return "", err
}

// boundDamaged removes the oldest damaged copies while they take more than
// max bytes, always keeping the newest. It returns what it removed.
func boundDamaged(dir string, max int64) []string {
	nums, err := kept(dir, Damaged)
	if err != nil {
		return nil
	}
	type copyFile struct {
		path string
		size int64
	}
	var copies []copyFile
	var total int64
	for _, n := range nums {
		p := keptPath(dir, Damaged, n)
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		copies = append(copies, copyFile{p, fi.Size()})
		total += fi.Size()
	}
	var notes []string
	for len(copies) > 1 && total > max {
		c := copies[0]
		if err := os.Remove(c.path); err != nil {
			notes = append(notes, fmt.Sprintf("journal: remove %s: %v", c.path, regfile.WithoutPath(err)))
			break
		}
		notes = append(notes, fmt.Sprintf("journal: removed %s (%d bytes): damaged copies are kept up to %d bytes in all", c.path, c.size, max))
		total -= c.size
		copies = copies[1:]
	}
	if len(notes) > 0 {
		syncDir(dir)
	}
	return notes
}

// renameNoReplace renames src to dst unless dst exists (fs.ErrExist).
func renameNoReplace(src, dst string) error {
	err := unix.Renameat2(unix.AT_FDCWD, src, unix.AT_FDCWD, dst, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		// A file system without it: a second name, then the first goes.
		if err = os.Link(src, dst); err == nil {
			err = os.Remove(src)
		}
		return err
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: src, New: dst, Err: err}
	}
	return nil
}

// archiveInto moves a finished game's journal at path into dir/games as
// NNNN.log, keeping the newest Keep games, and syncs both directories. It
// returns the archived file's name.
func archiveInto(dir, path string) (string, error) {
	games := filepath.Join(dir, Archive)
	if err := os.MkdirAll(games, 0o755); err != nil {
		return "", err
	}
	var nums []int
	ents, err := os.ReadDir(games)
	if err != nil {
		return "", err
	}
	for _, e := range ents {
		if k, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".log")); err == nil && strings.HasSuffix(e.Name(), ".log") {
			nums = append(nums, k)
		}
	}
	sort.Ints(nums)
	next := 1
	if len(nums) > 0 {
		next = nums[len(nums)-1] + 1
	}
	var dst string
	for try := 0; ; try++ {
		dst = filepath.Join(games, fmt.Sprintf("%04d.log", next))
		err = renameNoReplace(path, dst)
		if !errors.Is(err, fs.ErrExist) || try == 10 {
			break
		}
		next++
	}
	if err != nil {
		return "", err
	}
	for len(nums) >= Keep {
		os.Remove(filepath.Join(games, fmt.Sprintf("%04d.log", nums[0])))
		nums = nums[1:]
	}
	if err := syncDir(games); err != nil {
		return dst, err
	}
	return dst, syncDir(dir)
}

// openTemp creates path afresh for writing. A regular file left there by
// an interrupted write is removed; anything else is kept aside.
func openTemp(dir, name string) (*os.File, error) {
	if err := clearTemp(dir, name); err != nil {
		return nil, err
	}
	return regfile.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644, regfile.Opts{NoFollow: true})
}

// clearTemp frees a temporary file's name: a regular file (what an
// interrupted write leaves) is removed, anything else kept aside.
func clearTemp(dir, name string) error {
	fi, err := os.Lstat(filepath.Join(dir, name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode().IsRegular():
		return os.Remove(filepath.Join(dir, name))
	}
	_, err = keepAside(dir, name, Kept, false)
	return err
}

func syncDir(dir string) error {
	if err := atomicfile.SyncDir(dir); err != nil {
		return &fs.PathError{Op: "sync", Path: dir, Err: regfile.WithoutPath(err)}
	}
	return nil
}
