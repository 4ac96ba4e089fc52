package config

import (
	"fmt"
	"strings"
	"testing"
)

// Files that made the parser slow, each about 1 MiB, the most the clock
// reads: a config with one long array, a config with dotted keys the
// schema does not have, and a presets file of presets without keys.
var (
	bigArray  = []byte("[display]\nx = [" + strings.Repeat("1,", 500_000-1) + "1]\n")
	bigDotted = func() []byte {
		var b strings.Builder
		for i := 0; b.Len() < maxFileSize-64; i++ {
			fmt.Fprintf(&b, "game.k%d = 1\n", i)
		}
		return []byte(b.String())
	}()
	bigPresets = func() []byte {
		var b strings.Builder
		for i := 0; b.Len() < maxFileSize-64; i++ {
			fmt.Fprintf(&b, "[[preset]]\nname = \"P%d\"\ncontrol = \"%d+2\"\n", i%1000, 60+i%3000)
		}
		return []byte(b.String())
	}()
)

func BenchmarkParseBigArray(b *testing.B)  { benchConfig(b, bigArray) }
func BenchmarkParseBigDotted(b *testing.B) { benchConfig(b, bigDotted) }

func benchConfig(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Parse("zeitnot.toml", data, Defaults(SimProfile), nil); len(errs) == 0 {
			b.Fatal("no error")
		}
	}
}

func BenchmarkParseBigPresets(b *testing.B) {
	b.SetBytes(int64(len(bigPresets)))
	b.ReportAllocs()
	for b.Loop() {
		ParsePresets("presets.toml", bigPresets)
	}
}
