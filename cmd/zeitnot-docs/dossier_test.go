package main

import (
	"strings"
	"testing"
)

// The dossier's command takes its flags and nothing else; it runs the
// rules' tests only when called right (make fide-dossier does).
func TestDossierCommandArgs(t *testing.T) {
	if code, _, stderr := prog.Run("dossier", "extra"); code != 2 || !strings.Contains(stderr, "Usage:") {
		t.Errorf("dossier extra: exit %d, %q", code, stderr)
	}
	if code, _, stderr := prog.Run("dossier", "--nope"); code != 2 || !strings.Contains(stderr, "flag provided but not defined") {
		t.Errorf("dossier --nope: exit %d, %q", code, stderr)
	}
	if code, _, stderr := prog.Run("dossier", "--help"); code != 0 || !strings.Contains(stderr, "out/fide-dossier.md") {
		t.Errorf("dossier --help: exit %d, %q", code, stderr)
	}
}
