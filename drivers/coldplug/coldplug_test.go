package coldplug

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWaitEmptyQueue(t *testing.T) {
	dir := t.TempDir()
	ok, err := Wait(dir, time.Hour)
	if !ok || err != nil {
		t.Fatalf("Wait on an empty queue = %v, %v", ok, err)
	}
	ok, err = Wait(filepath.Join(dir, "no-udev"), time.Hour)
	if !ok || err != nil {
		t.Fatalf("Wait without udev = %v, %v", ok, err)
	}
}

// TestWaitWakesAtTheRemoval: Wait returns when udev removes its queue
// file, long before its timeout.
func TestWaitWakesAtTheRemoval(t *testing.T) {
	dir := t.TempDir()
	queue := filepath.Join(dir, "queue")
	if err := os.WriteFile(queue, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Other files come and go in the directory meanwhile.
	if err := os.WriteFile(filepath.Join(dir, "other"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	go func() {
		ok, err := Wait(dir, time.Hour)
		if err != nil {
			t.Error(err)
		}
		done <- ok
	}()
	os.Remove(filepath.Join(dir, "other"))
	select {
	case <-done:
		t.Fatal("Wait returned while the queue file was there")
	default:
	}
	os.Remove(queue)
	if ok := <-done; !ok {
		t.Fatal("Wait reported a queue after its file was removed")
	}
}

func TestWaitTimesOut(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "queue"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ok, err := Wait(dir, 20*time.Millisecond)
	if ok || err != nil {
		t.Fatalf("Wait with the queue kept = %v, %v; want false after the timeout", ok, err)
	}
}
