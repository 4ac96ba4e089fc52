package dossier

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Func is one test or benchmark of the module.
type Func struct {
	Name string
	Pkg  string // its package's folder from the module's root: "./engine/clock"
	File string // its file, from the module's root
	Line int
	// Figures is the KEY of every "figure KEY: ..." string its body holds.
	Figures []string
}

// Index is the module's tests and benchmarks, by name.
type Index map[string][]Func

// ModuleRoot is the folder of the go.mod at or above dir.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("dossier: no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// skipDir reports whether a folder holds no package of the module's: its
// data, build output and installed packages.
func skipDir(name string) bool {
	switch name {
	case "testdata", "node_modules", "vendor", "out", "bin":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// NewIndex reads every _test.go file under root, the module's root, and
// indexes its top-level Test and Benchmark functions.
func NewIndex(root string) (Index, error) {
	idx := Index{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("dossier: %w", err)
		}
		rel, _ := filepath.Rel(root, path)
		pkg := "./" + filepath.ToSlash(filepath.Dir(rel))
		if pkg == "./." {
			pkg = "."
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			name := fn.Name.Name
			if !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Benchmark") {
				continue
			}
			idx[name] = append(idx[name], Func{
				Name: name, Pkg: pkg, File: filepath.ToSlash(rel),
				Line:    fset.Position(fn.Pos()).Line,
				Figures: figureKeys(fn.Body),
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

// figureKeys is the KEY of every string literal "figure KEY: ..." in body.
func figureKeys(body *ast.BlockStmt) []string {
	var keys []string
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		if key, ok := figureKey(s); ok {
			keys = append(keys, key)
		}
		return true
	})
	return keys
}

// figureKey returns KEY of a line "figure KEY: TEXT".
func figureKey(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "figure ")
	if !ok {
		return "", false
	}
	key, _, ok := strings.Cut(rest, ": ")
	if !ok || key == "" || strings.ContainsAny(key, " \t") {
		return "", false
	}
	return key, true
}

// Find returns the one test or benchmark called name.
func (idx Index) Find(name string) (Func, error) {
	fs := idx[name]
	switch len(fs) {
	case 0:
		return Func{}, fmt.Errorf("no test or benchmark %s in the module's _test.go files", name)
	case 1:
		return fs[0], nil
	}
	var where []string
	for _, f := range fs {
		where = append(where, fmt.Sprintf("%s:%d", f.File, f.Line))
	}
	return Func{}, fmt.Errorf("%s is in more than one package (%s): the dossier names a test by its name alone", name, strings.Join(where, ", "))
}

// Check reports every problem of the rules against idx: a row without a
// test or a figure, a test or benchmark the module does not have, a
// figure whose test logs no such line. One error a problem, each naming
// its row.
func (idx Index) Check(rules []Rule) []error {
	var errs []error
	bad := func(r Rule, format string, args ...any) {
		errs = append(errs, fmt.Errorf("rule %s: %s", r.ID, fmt.Sprintf(format, args...)))
	}
	for _, r := range rules {
		if len(r.Tests) == 0 {
			bad(r, "no test proves it")
		}
		for _, t := range r.Tests {
			if _, err := idx.Find(t); err != nil {
				bad(r, "%v", err)
			}
		}
		f := r.Figure
		switch f.Kind {
		case FigureLogged, FigureBench, FigureCases:
			fn, err := idx.Find(f.Of)
			if err != nil {
				bad(r, "its figure: %v", err)
				continue
			}
			switch {
			case f.Kind == FigureBench && !strings.HasPrefix(f.Of, "Benchmark"):
				bad(r, "its figure is a benchmark's, and %s is a test", f.Of)
			case f.Kind != FigureBench && !strings.HasPrefix(f.Of, "Test"):
				bad(r, "its figure is a test's, and %s is a benchmark", f.Of)
			case f.Kind == FigureLogged && !slices.Contains(fn.Figures, f.Key):
				bad(r, "its figure: %s (%s:%d) logs no line \"figure %s: ...\"", f.Of, fn.File, fn.Line, f.Key)
			}
		case FigurePassed, FigureBattery:
		default:
			bad(r, "no figure")
		}
		if f.What == "" {
			bad(r, "its figure does not say what it measures")
		}
	}
	return errs
}
