package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/network"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "config",
		Summary: "check, import or show the configuration files (zeitnot config -h)",
		Run:     runConfig,
	})
}

const configUsage = `Usage:
  zeitnot config check FILE...
      Print every problem in each file, or "FILE: ok". Exit 1 if any file has one.
      A file named presets.toml is checked as saved presets, any other as a
      config file (zeitnot.toml or settings.toml), its [network] table too
      (all but the passphrase_file it may name, a file on the clock).
  zeitnot config import FILE [--state-dir DIR]
      Check FILE; if it has no problem, write it to DIR/zeitnot.toml (which then
      replaces /etc/zeitnot/zeitnot.toml) and remove DIR/import-errors.txt.
      Otherwise print the problems, write them to DIR/import-errors.txt, keep
      the old config and exit 1.
  zeitnot config show [--config FILE] [--state-dir DIR]
      Print the effective configuration as TOML: the defaults, then the club
      config, then DIR/settings.toml. Problems go to standard error (exit 1).
`

func runConfig(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, configUsage)
		return 2
	}
	switch args[0] {
	case "check":
		return configCheck(args[1:], stdout, stderr)
	case "import":
		return configImport(args[1:], stdout, stderr)
	case "show":
		return configShow(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, configUsage)
		return 0
	}
	fmt.Fprintf(stderr, "zeitnot config: unknown subcommand %q\n\n%s", args[0], configUsage)
	return 2
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := subcmd.FlagSet("config "+name, stderr)
	fs.Usage = func() { fmt.Fprint(stderr, configUsage) }
	return fs
}

func configCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	files, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	code := 0
	for _, f := range files {
		var errs []error
		if filepath.Base(f) == config.PresetsFile {
			errs = config.CheckPresets(f)
		} else {
			// The [network] table is zeitnot network's: checked here
			// too, but for its passphrase_file, a file on the clock.
			errs = append(config.Check(f), network.CheckFile(f)...)
		}
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		if len(errs) > 0 {
			code = 1
		} else {
			fmt.Fprintf(stdout, "%s: ok\n", f)
		}
	}
	return code
}

func configImport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import", stderr)
	stateDir := fs.String("state-dir", config.DefaultStateDir, "the state directory to import into")
	files, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(files) != 1 {
		fs.Usage()
		return 2
	}
	src := files[0]
	dst := filepath.Join(*stateDir, config.ImportedFile)
	problems, changed, err := config.Import(src, *stateDir)
	for _, p := range problems {
		fmt.Fprintln(stderr, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "zeitnot config import: %s not imported, %s unchanged\n", src, dst)
	}
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot config import: %v\n", err)
		return 1
	}
	if len(problems) > 0 {
		return 1
	}
	if changed {
		fmt.Fprintf(stdout, "%s: ok, imported to %s\n", src, dst)
	} else {
		fmt.Fprintf(stdout, "%s: ok, %s already has it\n", src, dst)
	}
	return 0
}

func configShow(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("show", stderr)
	cfgPath := fs.String("config", config.DefaultConfigPath, "the club config file")
	stateDir := fs.String("state-dir", config.DefaultStateDir, "the state directory (settings.toml, an imported zeitnot.toml)")
	files, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(files) != 0 {
		fs.Usage()
		return 2
	}
	l, errs := config.LoadLayers(*cfgPath, *stateDir, config.Defaults(defaultProfile))
	for _, e := range errs {
		fmt.Fprintln(stderr, e)
	}
	present := func(p string) string {
		if p == "" {
			return "(no state directory)"
		}
		if _, err := os.Stat(p); err != nil {
			return p + " (absent)"
		}
		return p
	}
	fmt.Fprintf(stdout, "# The effective configuration: the defaults, then\n#   %s\n# then\n#   %s\n# with the saved presets of\n#   %s\n",
		present(l.ClubFile), present(l.SettingsFile), present(l.PresetsFile))
	if ctl, err := l.Presets.Resolve(l.Effective.Control); err == nil {
		var o []string
		for _, n := range clock.OptionNames {
			o = append(o, n+" "+l.Effective.Options.Get(n))
		}
		fmt.Fprintf(stdout, "# The control is %s (%s).\n# The clock calls it %q.\n", ctl.Pair, strings.Join(o, ", "), ctl.Name)
	}
	fmt.Fprintf(stdout, "\n%s", config.Format(l.Effective))
	if len(errs) > 0 {
		return 1
	}
	return 0
}
