# domsnap's make targets. `make check` is what CI runs (with install-browser and conformance first).
GO ?= go
FUZZTIME ?= 30s
BENCHTIME ?= 1x
SHARED ?= ../shared

.PHONY: all build install test-examples test vet fmt-check test-browser test-browser-load install-browser conformance check fuzz bench bench-browser captures example devtools

all: build test

# The command is built without cgo: it needs no C library, and a static
# binary starts faster and smaller than one the dynamic loader must link
# (measured: a small page's extract takes about a third less CPU time and
# 1.7 MB less memory). Go's own DNS resolver is then used, which reads
# /etc/hosts and resolv.conf; the command only ever dials loopback and the
# addresses it is given.
NOCGO = CGO_ENABLED=0

# Every package, and the command as ./bin/domsnap.
build:
	$(GO) build ./...
	$(NOCGO) $(GO) build -o bin/domsnap ./cmd/domsnap

# The command into $(go env GOPATH)/bin, or $GOBIN when set.
install:
	$(NOCGO) $(GO) install ./cmd/domsnap

vet:
	$(GO) vet ./...
	$(GO) vet -tags browser ./...
	$(GO) vet -tags conformance ./...
	$(GO) vet -tags examples ./examples/...
	cd devtools && $(GO) vet ./... && $(GO) vet -tags browser ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# Unit, property and fuzz-seed tests: no browser.
test: vet fmt-check
	$(GO) test -count=1 ./...
	cd devtools && $(GO) test -count=1 ./...

# The dev-only programs (devtools/, a module of their own so that `go install
# ./...` installs only the command) into bin/dev/, to be run from here.
devtools:
	$(GO) build -C devtools -o $(CURDIR)/bin/dev/ ./...

# The real-Chromium partition (docs/reference.md#browser-tests): fails, never skips.
test-browser:
	$(GO) build -C devtools -o $(CURDIR)/bin/dev/ ./browserpartition
	./bin/dev/browserpartition

# The same partition with BUSY busy loops beside it from start to end (two by
# default: one per core of a two-core machine such as CI's), RUNS times in a
# row, stopping at the first run that fails, whose reports stay in reports/.
# A case that depends on how busy the machine is fails here before CI meets it.
# The loops take about half of such a machine, so each package's go test gets
# twice the partition's usual 30 minutes before it is stopped as hung.
BUSY ?= 2
RUNS ?= 1
test-browser-load:
	$(GO) build -C devtools -o $(CURDIR)/bin/dev/ ./browserpartition
	@i=1; while [ $$i -le $(RUNS) ]; do \
	  echo "browser partition with $(BUSY) busy loops: run $$i of $(RUNS)"; \
	  ./bin/dev/browserpartition -busy $(BUSY) -timeout 60m || exit 1; \
	  i=$$((i + 1)); \
	done

# The capture programs of examples/capture (Puppeteer, Playwright, chromedp)
# against real Chromium: needs Node.js 20 or later and npm, which fetches the
# pinned packages (no browser download). Then the batch recipe of
# examples/scale (docs/scale.md), its own module, run with Beam's local runner;
# its first run compiles the Beam SDK, which takes minutes.
test-examples:
	$(GO) test -tags examples -count=1 -v ./examples/capture/
	cd examples/scale && $(GO) vet -tags examples . && $(GO) test -tags examples -count=1 -v -timeout 30m .

# What the browser tests need: Debian's chromium, Node.js with npm for the
# Puppeteer and Playwright capture programs that drive it, xvfb and
# xdotool for the sign-in window of the profile tests, Debian's Django for
# the real admin interface the page view is tested on, and haproxy for the
# hosted recipe's test (examples/hosted). The script asks apt
# only for the missing ones (a Node.js from another packager bundles npm and
# conflicts with Debian's), and leaves apt alone when nothing is missing.
install-browser:
	sh scripts/install-browser.sh

# Conformance suites that live outside the project, in $(SHARED)/testsuites.
conformance:
	@if [ ! -d "$(SHARED)/testsuites" ]; then echo "conformance: $(SHARED)/testsuites is missing" >&2; exit 1; fi
	$(GO) test -tags conformance -count=1 -v ./conformance/

# check runs every test: the unit tests, the browser partition, the capture programs, and the
# suites when they are beside the checkout, and says loudly when they are not (a user's
# clone has no such folder). When conformance is also named on the command line, it runs once, there.
check: test test-browser test-examples
ifeq ($(filter conformance,$(MAKECMDGOALS)),)
	@if [ -d "$(SHARED)/testsuites" ]; then $(MAKE) --no-print-directory conformance; \
	else echo "!!! $(SHARED)/testsuites not found: conformance suites NOT run !!!"; fi
endif

fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$t for $(FUZZTIME)"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# The Go benchmarks, then the offline path's costs as ratios in one table
# (devtools/benchratio; add -pandas by hand for the pandas comparison).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...
	$(GO) build -C devtools -o $(CURDIR)/bin/dev/ ./benchratio
	./bin/dev/benchratio -runs 5

bench-browser:
	$(GO) test -tags browser -run '^$$' -bench BenchmarkLiveCaptureVsScript -benchtime 5x ./live

# Re-captures testdata/html pages in Chromium into testdata/captures.
captures:
	$(GO) build -C devtools -o $(CURDIR)/bin/dev/ ./capturefixtures
	./bin/dev/capturefixtures

example:
	$(GO) run ./cmd/domsnap extract --kind table --index 0 --field product:0:string:required --field price:2:number --format table examples/products.html
