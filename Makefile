# zeitnot: tournament chess clock for the Raspberry Pi.
# `make run` starts the simulator, `make test` runs every check.

GO        ?= go
# Every program's main is cmd/NAME. The clock's (the SD image holds it,
# with appliance/, drivers/, engine/ and protocol/), and the laptop's: the
# hall (hall/), the simulator (sim/), the documents' generators (docgen/)
# and the hall's bench.
BIN       := bin/zeitnot
PKG       := ./cmd/zeitnot
HALL_BIN  := bin/zeitnot-hall
HALL_PKG  := ./cmd/zeitnot-hall
SIM_BIN   := bin/zeitnot-sim
DOCS_BIN  := bin/zeitnot-docs
BENCH_BIN := bin/zeitnot-bench
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# Worked out once: a commit made while make runs must not give the image a
# name the boot test does not look for.
VERSION   := $(VERSION)
LDFLAGS   := -s -w -X main.version=$(VERSION)
GOFLAGS_BUILD := -trimpath -buildvcs=false -ldflags '$(LDFLAGS)'

.PHONY: all build cross run test test-short test-race test-busy vet bench fuzz clean deps screens manual card torture wiring enclosure hall hall-rehearsal hall-bench hall-screens redteam release reproducible actionlint staticcheck repocheck

all: build

# deps makes sure the Go toolchain is there and the module cache is filled.
deps:
	@command -v $(GO) >/dev/null 2>&1 || { echo "Go 1.26 is needed: install it from the Go distribution or Debian's golang-go package"; exit 1; }
	$(GO) mod download

build: deps
	$(GO) build $(GOFLAGS_BUILD) -o $(BIN) $(PKG)
	$(GO) build $(GOFLAGS_BUILD) -o $(HALL_BIN) $(HALL_PKG)
	$(GO) build $(GOFLAGS_BUILD) -o $(SIM_BIN) ./cmd/zeitnot-sim
	$(GO) build $(GOFLAGS_BUILD) -o $(DOCS_BIN) ./cmd/zeitnot-docs
	$(GO) build $(GOFLAGS_BUILD) -o $(BENCH_BIN) ./cmd/zeitnot-bench

# The clock's program for the Pi (the image takes the arm64 one), and the
# laptop's for an arm64 machine.
cross: deps
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build $(GOFLAGS_BUILD) -o bin/zeitnot-linux-arm64 $(PKG)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=7 $(GO) build $(GOFLAGS_BUILD) -o bin/zeitnot-linux-armv7 $(PKG)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build $(GOFLAGS_BUILD) -o bin/zeitnot-hall-linux-arm64 $(HALL_PKG)

run: build
	$(SIM_BIN)

# The tournament hall with eight simulated clocks (a daemon and a link
# each, bin/zeitnot) playing random games at real time:
# http://127.0.0.1:8080/.
hall: build
	$(HALL_BIN) hall --demo 8 --clock $(BIN)

# A round rehearsed: the same clocks, their players waiting for the
# arbiter's scheduled start (docs/arbiter-manual.md, "The rehearsal").
hall-rehearsal: build
	$(HALL_BIN) hall --demo 8 --demo-wait --clock $(BIN)

# The hall under load: fake clocks at real time, each with its own MQTT
# connection, against the embedded broker and Mosquitto (several minutes;
# not part of make test).
hall-bench: build
	$(BENCH_BIN) -hall $(HALL_BIN) -clocks 100,500,1500

# docs/hall.md's pictures of the hall's pages, taken by headless Chromium.
hall-screens: deps
	ZEITNOT_HALL_SHOTS=docs/hall $(GO) test -count=1 -run TestBrowser ./hall/

# The red team's attacks on the hall, the link and their broker, each a
# test bounded in count and time on the loopback (127.0.0.x), as a table of
# finding and result (devtools/redteam); fails if one attack succeeds. Needs
# mosquitto for the outside-broker rows; a test that fails or does not run
# (a build error) fails it too.
redteam: deps
	$(GO) test -count=1 -json -run "$$($(GO) run ./devtools/redteam -run)" ./hall/... ./appliance/link/ ./appliance/eboard/... ./appliance/daemon/ ./appliance/config/ | $(GO) run ./devtools/redteam

vet: deps
	$(GO) vet ./...

# make test is every test (CI runs it); `go test -short ./...` is the quick
# loop: it leaves out the torture, the write budget, real daemon processes
# and the boot test's timing tests.
# A package's tests may take longer than go test's default 10 minutes on a
# busy two-core machine (the hall's, with its browsers and real processes):
# the bound is CI's.
TEST_TIMEOUT ?= 30m

test: vet verify-units actionlint staticcheck
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

test-short: deps
	$(GO) test -short ./...

# The race detector over the short tests; CI runs it after make test.
test-race: deps
	$(GO) test -race -short -count=1 -timeout $(TEST_TIMEOUT) ./...

# make test, then make test-race, with both cores of a two-core machine
# kept busy by two bounded stress-ng loads (installed with apt-get when
# missing, as .ci/run installs its tools); the loads end with the run, pass
# or fail. A test that reads a count once instead of waiting for it fails
# here first.
test-busy: deps
	@command -v stress-ng >/dev/null 2>&1 || { \
		sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		echo "$$sudo apt-get install -y stress-ng"; \
		$$sudo apt-get install -y -qq stress-ng; }
	@set -e; start=$$(date +%s); \
	stress-ng --cpu 1 --timeout 30m >/dev/null 2>&1 & s1=$$!; \
	stress-ng --cpu 1 --timeout 30m >/dev/null 2>&1 & s2=$$!; \
	trap 'kill $$s1 $$s2 2>/dev/null; wait $$s1 $$s2 2>/dev/null || true' EXIT; \
	trap 'exit 130' INT TERM; \
	echo "stress-ng --cpu 1 --timeout 30m, twice (pids $$s1 $$s2)"; \
	$(MAKE) test; \
	$(MAKE) test-race; \
	echo "make test-busy: passed in $$(( $$(date +%s) - start )) s"

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin out

# Units, their checks, and the SD image have makefiles of their own.
-include systemd/systemd.mk
-include image/image.mk

# The pictures of the clock's screens (README.md, docs/players.md), made by
# the simulator.
screens: build
	$(SIM_BIN) --script docs/screens.sim --shots docs/screens 2>/dev/null
	$(SIM_BIN) --script docs/menu.sim --shots docs/screens 2>/dev/null
	$(SIM_BIN) --config docs/blitz.toml --script docs/blitz.sim --shots docs/screens 2>/dev/null
	rm -f docs/screens/*.txt

# The arbiter's manual (docs/arbiter-manual.md): its pictures, made by the
# simulator from docs/manual/NAME.sim (with docs/manual/NAME.toml as the
# club config where there is one), and its menu lists, made from the menus.
manual: build
	rm -rf docs/manual/shots
	@for f in docs/manual/*.sim; do \
		cfg=$${f%.sim}.toml; set -- ; [ -f "$$cfg" ] && set -- --config "$$cfg"; \
		echo "$(SIM_BIN) $$* --script $$f --shots docs/manual/shots"; \
		$(SIM_BIN) "$$@" --script "$$f" --shots docs/manual/shots 2>docs/manual/.sim.log || { cat docs/manual/.sim.log; rm -f docs/manual/.sim.log; exit 1; }; \
	done; rm -f docs/manual/.sim.log
	rm -f docs/manual/shots/*.txt
	$(DOCS_BIN) outline --update docs/arbiter-manual.md

# The quick-reference card (docs/card.svg), drawn from the menus, and
# docs/card.pdf to print, where rsvg-convert is installed (Debian's
# librsvg2-bin). The PDF is dated by the last commit of the code the card is
# drawn from, so making it again gives the same file.
card: build
	$(DOCS_BIN) card -o docs/card.svg
	@if command -v rsvg-convert >/dev/null 2>&1; then \
		echo "rsvg-convert -f pdf -o docs/card.pdf docs/card.svg"; \
		SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct -- appliance/ui docgen/menudoc 2>/dev/null | grep . || echo 0)} rsvg-convert -f pdf -o docs/card.pdf docs/card.svg; \
	else \
		echo "rsvg-convert is not installed (apt-get install librsvg2-bin): docs/card.pdf not made"; \
	fi

# The FIDE dossier (docs/building.md, "The FIDE equipment rules"): every
# rule of FIDE's standards for electronic clocks with how zeitnot meets
# it, the tests that prove it, run now, and the figures they measure, in
# out/fide-dossier.md, and printed from out/fide-dossier.html by headless
# Chromium to out/fide-dossier.pdf (Chromium is what the hall's tests use;
# .ci/run installs it). make test checks the rule table
# (docgen/dossier); this runs its tests and writes the document, and fails
# when a rule is not proved (the document, made all the same, says which).
.PHONY: fide-dossier
CHROMIUM ?= chromium
DOSSIER_PDF = $(CHROMIUM) --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf=out/fide-dossier.pdf file://$(CURDIR)/out/fide-dossier.html
fide-dossier: build
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { echo "Chromium is needed for the PDF: apt-get install chromium"; exit 1; }
	@status=0; \
	echo "$(DOCS_BIN) dossier -o out/fide-dossier.md --html out/fide-dossier.html"; \
	$(DOCS_BIN) dossier -o out/fide-dossier.md --html out/fide-dossier.html || status=1; \
	rm -f out/fide-dossier.pdf; echo "$(DOSSIER_PDF)"; \
	if $(DOSSIER_PDF) 2>out/.chromium.log && test -s out/fide-dossier.pdf; then echo "wrote out/fide-dossier.pdf"; \
	else cat out/.chromium.log; echo "no out/fide-dossier.pdf"; status=1; fi; \
	rm -f out/.chromium.log; exit $$status

# The long fault-injection run: 1000 power cuts in the simulator and 1000
# SIGKILLs of real daemon processes with every CPU kept busy beside them
# (make test runs a few of each, without the load).
torture: deps
	ZEITNOT_TORTURE_CUTS=1000 ZEITNOT_TORTURE_KILLS=1000 ZEITNOT_TORTURE_LOAD=2 $(GO) test -count=1 -timeout 90m -run 'Torture|CheckpointGaps' -v ./sim ./cmd/zeitnot 2>&1 | grep -E '^(---|ok|FAIL|panic)|_test.go'

# For the people who build the box: the wiring diagram and the parts list
# of every reference build, drawn from its built-in profile
# (hardware/wiring-NAME.svg, hardware/bom-NAME.md; a test checks they are
# up to date).
wiring: build
	$(DOCS_BIN) wiring --all hardware

# Build A's enclosure (hardware/enclosure-a.scad): the two parts to print
# as STL in out/ (not committed) and the pictures in hardware/README.md.
# Needs OpenSCAD (apt-get install openscad); its pictures need an OpenGL
# display, so they are drawn under xvfb-run (apt-get install xvfb) when
# there is none. Not part of make test.
OPENSCAD  ?= openscad
SCAD      := hardware/enclosure-a.scad
SCAD_PNG   = $(if $(DISPLAY),,xvfb-run -a) $(OPENSCAD) -q --imgsize=1200,800 --colorscheme=Tomorrow
enclosure:
	@command -v $(OPENSCAD) >/dev/null 2>&1 || { echo "OpenSCAD is needed: apt-get install openscad"; exit 1; }
	@test -n "$(DISPLAY)" || command -v xvfb-run >/dev/null 2>&1 || { echo "with no display, xvfb-run is needed for the pictures: apt-get install xvfb"; exit 1; }
	mkdir -p out
	$(OPENSCAD) -q -o out/enclosure-a-shell.stl -D 'part="shell"' $(SCAD)
	$(OPENSCAD) -q -o out/enclosure-a-base.stl -D 'part="base"' $(SCAD)
	$(SCAD_PNG) -o hardware/enclosure-a.png -D 'part="view"' --camera=-170,-330,250,105,48,22 $(SCAD)
	$(SCAD_PNG) -o hardware/enclosure-a-inside.png -D 'part="inside"' --camera=-220,-250,200,100,50,20 $(SCAD)

# A signed release in out/release/ (release/release.sh; docs/building.md,
# "Download and flash"): the image, its .bmap, SHA256SUMS, SHA256SUMS.minisig (signed
# with the minisign secret key at $ZEITNOT_SIGNING_KEY, never in this
# repository) and a Raspberry Pi Imager repository whose download URL is
# ZEITNOT_RELEASE_URL (a club's mirror sets its own).
ZEITNOT_RELEASE_URL ?= https://github.com/zeitnot/zeitnot/releases/download/$(VERSION)
release: bundle
	ZEITNOT_RELEASE_URL='$(ZEITNOT_RELEASE_URL)' release/release.sh --version '$(VERSION)' --in out --out out/release

# The forge's workflows (.github/workflows) checked by actionlint, so that a
# broken one cannot land (make test runs it). actionlint is a Go module,
# installed into bin/ at the version below when it is not there; shellcheck
# and pyflakes are left out, so the result does not depend on what else the
# machine has installed.
ACTIONLINT_VERSION := v1.7.12
actionlint: deps
	@if [ "$$(bin/actionlint -version 2>/dev/null | head -n 1)" != "$(ACTIONLINT_VERSION)" ]; then \
		echo "GOBIN=$(CURDIR)/bin $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)"; \
		GOBIN=$(CURDIR)/bin $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION); \
	fi
	bin/actionlint -shellcheck= -pyflakes=

# The repository tracks no build output (executables, objects, test
# binaries) and no file over 1 MB, pictures in docs/ aside
# (internal/repocheck, part of make test's go test ./...).
repocheck: deps
	$(GO) test -count=1 ./internal/repocheck

# staticcheck (honnef.co/go/tools), installed into bin/ like actionlint;
# make test runs it and it must find nothing.
STATICCHECK_VERSION := v0.8.2
staticcheck: deps
	@if ! bin/staticcheck -version 2>/dev/null | grep -qF '($(STATICCHECK_VERSION:v%=%))'; then \
		echo "GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)"; \
		GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); \
	fi
	bin/staticcheck ./...

# Two clean builds of the SD image from the commit checked out (HEAD, a git
# archive of it, an empty image/cache), compared byte for byte; diffoscope
# reports where they differ (release/reproducible.sh; out/repro/).
reproducible:
	release/reproducible.sh
