package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// runProgress runs rauc install: its output comes back whole, as
// CombinedOutput's, and each progress line RAUC prints ("  40% Copying
// image to rootfs.1") is also said on stdout as "update: progress 40%",
// for the installer to show on the displays.
func runProgress(cmd *exec.Cmd, stdout io.Writer) ([]byte, error) {
	var mu sync.Mutex
	var all bytes.Buffer
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 4096), 1<<20)
		last := -1
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			all.WriteString(line + "\n")
			mu.Unlock()
			if n, ok := raucPercent(line); ok && n != last {
				last = n
				fmt.Fprintf(stdout, "update: progress %d%%\n", n)
			}
		}
		io.Copy(io.Discard, r)
	}()
	err := cmd.Wait()
	w.Close()
	<-done
	return all.Bytes(), err
}

// raucPercent reads a progress line of rauc install: "NN% text".
func raucPercent(line string) (int, bool) {
	num, _, ok := strings.Cut(strings.TrimSpace(line), "%")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil && n >= 0 && n <= 100
}
