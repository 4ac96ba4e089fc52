# zeitnot: tournament chess clock for the Raspberry Pi.
# `make run` starts the simulator, `make test` runs every check.

GO        ?= go
BIN       := bin/zeitnot
PKG       := ./appliance/cmd/zeitnot
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
GOFLAGS_BUILD := -trimpath -ldflags '$(LDFLAGS)'

.PHONY: all build cross run test test-short vet bench fuzz clean deps screens torture hall hall-bench hall-screens

all: build

# deps makes sure the Go toolchain is there and the module cache is filled.
deps:
	@command -v $(GO) >/dev/null 2>&1 || { echo "Go 1.26 is needed: install it from the Go distribution or Debian's golang-go package"; exit 1; }
	$(GO) mod download

build: deps
	$(GO) build $(GOFLAGS_BUILD) -o $(BIN) $(PKG)

cross: deps
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build $(GOFLAGS_BUILD) -o bin/zeitnot-linux-arm64 $(PKG)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=7 $(GO) build $(GOFLAGS_BUILD) -o bin/zeitnot-linux-armv7 $(PKG)

run: build
	$(BIN) sim

# The tournament hall with eight simulated clocks (a daemon and a link
# each) playing random games at real time: http://127.0.0.1:8080/.
hall: build
	$(BIN) hall --demo 8

# The hall under load: fake clocks at real time, each with its own MQTT
# connection, against the embedded broker and Mosquitto (several minutes;
# not part of make test).
hall-bench: build
	$(GO) run ./hall/bench -zeitnot $(BIN) -clocks 100,500,1500

# The README's pictures of the hall's pages, taken by headless Chromium.
hall-screens: deps
	ZEITNOT_HALL_SHOTS=docs/hall $(GO) test -count=1 -run TestBrowser ./hall/

vet: deps
	$(GO) vet ./...

# make test is every test (CI runs it); `go test -short ./...` is the quick
# loop: it leaves out the torture, the write budget, real daemon processes
# and the boot test's timing tests.
test: vet verify-units
	$(GO) test -count=1 ./...

test-short: deps
	$(GO) test -short ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin out

# Units, their checks, and the SD image have makefiles of their own.
-include systemd/systemd.mk
-include image/image.mk

# The README's pictures of the screens, made by the simulator.
screens: build
	$(BIN) sim --script docs/screens.sim --shots docs/screens 2>/dev/null
	$(BIN) sim --script docs/menu.sim --shots docs/screens 2>/dev/null
	$(BIN) sim --config docs/blitz.toml --script docs/blitz.sim --shots docs/screens 2>/dev/null
	rm -f docs/screens/*.txt

# The long fault-injection run: 1000 power cuts in the simulator and 1000
# SIGKILLs of real daemon processes with every CPU kept busy beside them
# (make test runs a few of each, without the load).
torture: deps
	ZEITNOT_TORTURE_CUTS=1000 ZEITNOT_TORTURE_KILLS=1000 ZEITNOT_TORTURE_LOAD=2 $(GO) test -count=1 -timeout 90m -run 'Torture|CheckpointGaps' -v ./appliance/sim ./appliance/cmd/zeitnot 2>&1 | grep -E '^(---|ok|FAIL|panic)|_test.go'
