# einvoice — build, run and test.
#
# The two set-up commands of the README:
#   make run    installs what the service needs, generates the rule tables, builds and serves
#   make test   installs what the tests need (PostgreSQL, the Saxon oracle), then runs every test
#
# The official artifacts are read from $(SHARED) (default ../shared); nothing from there is
# ever copied into the repository: generated rule tables are git-ignored build outputs.

SHELL        := /bin/bash
SHARED       ?= $(abspath ../shared)
export EINVOICE_SHARED := $(SHARED)
VERSION      ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS      := -X main.version=$(VERSION)
BIN          := bin/einvoice
ADDR         ?= 127.0.0.1:8080
DATA_DIR     ?= ./data
GO           ?= go
GOTEST_FLAGS ?= -count=1 -timeout 40m
PGDIR        ?= $(CURDIR)/tmp/pgtest
BENCH        ?= .
BENCHTIME    ?= 1s
FUZZTIME     ?= 60s
ORACLE_TIME  ?= 10m
# The CPU profile of the profile-guided build (scripts/pgo.sh; git-ignored), retrained when Go code changes.
PGO          := tools/einvoice/default.pgo
PGO_TIME     ?= 30s

.PHONY: schemathesis reliability all deps deps-test generate pgo build run test lint vet bench fuzz fuzz-oracle oracle verapdf clean loadtest govulncheck

all: build

# System packages: libxml2 (cgo XSD validation) and pkg-config. Installed only when missing.
deps:
	@scripts/deps.sh

# The same plus what only the tests need (chromium for golden screenshots).
deps-test:
	@EINVOICE_DEPS_TEST=1 scripts/deps.sh

# Compile the official Schematron into Go tables (git-ignored) from $(SHARED).
generate:
	$(GO) run ./tools/rulegen -shared $(SHARED) -out rulesets

# The binary is built with profile-guided optimisation: the profile is the CPU profile of a
# training workload (every corpus document through every profile, the benchmarks' own documents
# held out), recorded by scripts/pgo.sh from the code being built (docs/PERFORMANCE.md
# "Profile-guided build": 3-5.5 % fewer instructions a validation).
pgo: $(PGO)

$(PGO): scripts/pgo.sh httpapi/ops/engineval/pgo_test.go \
    $(shell find compiler engine formats httpapi internal pdf rulesets store tools -name '*.go' -not -name '*_test.go' 2>/dev/null)
	PGO_TIME=$(PGO_TIME) scripts/pgo.sh $@

build: deps generate verapdf pgo
	$(GO) build -pgo=$(PGO) -ldflags '$(LDFLAGS)' -o $(BIN) ./tools/einvoice

run: build
	$(BIN) serve --addr $(ADDR) --data-dir $(DATA_DIR)

# The Saxon-HE reference oracle (conformance tests only; never part of the product).
oracle:
	cd conformance/oracle && mvn -q -B package -DskipTests

# The veraPDF worker (PDF/A verdicts: pdfa/validate, and every PDF the service returns).
# Maven resolves veraPDF from Maven Central; the jar is a git-ignored build output, rebuilt
# only when pom.xml or a source changed, and swapped in by a rename so that JVMs running
# the previous jar (other test binaries, a server) are not disturbed.
VERAPDF_JAR  := tools/verapdf-worker/target/verapdf-worker.jar
verapdf: $(VERAPDF_JAR)

$(VERAPDF_JAR): tools/verapdf-worker/pom.xml $(shell find tools/verapdf-worker/src -type f 2>/dev/null)
	cd tools/verapdf-worker && mvn -q -B package -DskipTests -Dverapdf.jar=verapdf-worker.jar.new
	mv -f tools/verapdf-worker/target/verapdf-worker.jar.new $@

# Every test, with PostgreSQL and the reference oracle required (no skipping in CI).
# ./reliability (soak, faults, scale-out) runs after the other packages, alone: its
# soak measures the server's maximum rate and then judges p99 drift, which the
# conformance package's oracle JVMs running beside it would make a measure of them.
test: deps-test generate lint govulncheck oracle verapdf
	@set -euo pipefail; \
	url=$$(scripts/pgtest.sh start $(PGDIR) | tail -n 1); \
	trap 'scripts/pgtest.sh stop $(PGDIR) >/dev/null 2>&1 || true' EXIT; \
	export EINVOICE_TEST_DATABASE_URL="$$url" EINVOICE_REQUIRE_POSTGRES=1 EINVOICE_REQUIRE_ORACLE=1; \
	rc=0; $(GO) test $(GOTEST_FLAGS) $$($(GO) list ./... | grep -v '/reliability$$') || rc=$$?; \
	$(GO) test $(GOTEST_FLAGS) ./reliability || rc=$$?; \
	exit $$rc
	@$(MAKE) --no-print-directory schemathesis

# schemathesis (PyPI, in a venv under ~/.cache) against /openapi.json of a real server with a key:
# no 5xx, documented statuses, content types and bodies. Quick form here; `make reliability` runs long.
ST_EXAMPLES ?= 5
ST_TIME     ?= 90
schemathesis: build
	scripts/schemathesis.sh $(BIN) $(SHARED) $(ST_EXAMPLES) $(ST_TIME)

# The long forms of the reliability suite (issue 9). The quick forms (60 s soak, the fault and
# scale-out tests of ./reliability) run in `make test`; docs/RELIABILITY.md has the figures.
SOAK ?= 30m
reliability: build verapdf
	scripts/schemathesis.sh $(BIN) $(SHARED) 200 1800
	BIN=$(BIN) SHARED=$(SHARED) scripts/reliability/soak.sh $(SOAK)
	EINVOICE_SHARED=$(SHARED) $(GO) test -count=1 -v -timeout 30m -run 'Test(PostgresOutage|SQLite|VeraPDF|ScaleOut)' ./reliability/

# govulncheck (symbol level) with its database built from golang.org/x/vulndb, fetched through
# the Go module proxy like govulncheck itself; pins and how to bump them in the script.
govulncheck: generate
	GO=$(GO) scripts/govulncheck.sh

lint: vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) tool staticcheck ./...

vet: generate
	$(GO) vet ./...

# Benchmarks of every hot path; compare runs with benchstat (go run golang.org/x/perf/cmd/benchstat).
bench: deps generate
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -benchtime $(BENCHTIME) -count 6 ./... | tee bench.txt

# Every fuzz target for $(FUZZTIME) each. FUZZMINIMIZE bounds how long the
# engine shrinks a new input (Go's default 60 s stalls the targets seeded with
# large documents: FuzzOpen, FuzzDecodeInvoice, verapdf FuzzValidate, whose
# stall the engine reports as 0 executions a second; docs/RELIABILITY.md).
# verapdf FuzzValidate drives the real worker, hence the jar.
FUZZMINIMIZE ?= 5s
fuzz: deps generate verapdf
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg; \
	  done; done

# Differential fuzzing against the reference for as long as asked (ORACLE_TIME=2h make fuzz-oracle).
fuzz-oracle: deps generate oracle
	EINVOICE_REQUIRE_ORACLE=1 $(GO) test -count=1 -timeout 0 -v -run '^TestOracleFuzz$$' ./conformance -oracle.duration=$(ORACLE_TIME)

clean:
	rm -rf bin tmp rulesets/*/zz_generated_*.go conformance/oracle/target $(PGO)
