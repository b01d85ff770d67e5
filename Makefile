# Roost — every target works from a fresh clone with Python 3.11 and make.
# The Makefile makes its own virtual environment in .venv.

PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PROTOS := $(shell find protos -name '*.proto' 2>/dev/null)
# The registry of services (names, proto services, ports, player counts).
REGISTRY := protos/roost/games.toml
GEN    := gen
GEN_STAMP := $(GEN)/.stamp

.PHONY: help venv proto service-protos ts-client api-release run test test-fast test-unit test-service test-e2e lint bench clean

help:
	@echo "make run    - start Redis (embedded unless REDIS_URL is set), every service and the web app"
	@echo "make test   - set up and run the whole test suite (unit+service in parallel, then e2e)"
	@echo "make test-fast - the unit tier only (in process, no sockets; about a minute)"
	@echo "make test-unit / test-service / test-e2e - one tier alone"
	@echo "make lint   - ruff, buf lint and buf breaking (the API against the last release)"
	@echo "make ts-client - install the TypeScript client's packages and generate its stubs"
	@echo "make bench  - benchmarks; figures go to docs/BENCHMARKS.md"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -c 'import sysconfig, pathlib; pathlib.Path(sysconfig.get_paths()["purelib"], "roost-gen.pth").write_text("$(CURDIR)/$(GEN)\n")'
	touch $(STAMP)

venv: $(STAMP)

# Python stubs, .pyi type stubs and the registry module roost.games are
# generated, never edited by hand.
$(GEN_STAMP): $(STAMP) $(PROTOS) $(REGISTRY) tools/gen_protos.py
	$(PY) tools/gen_protos.py
	touch $(GEN_STAMP)

proto: $(GEN_STAMP)

# The web app is built first when Node.js 20.19+ and npm are there (make web: only
# what is stale); the launcher serves web/dist and prints its address.
NODE_OK := command -v npm >/dev/null 2>&1 && node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2>/dev/null

run: proto
	@if $(NODE_OK); then $(MAKE) --no-print-directory web || echo "web: the build failed; the web app is served only if an earlier build exists"; \
	else echo "web: skipped (building the web app needs Node.js 20.19 or later and npm)"; fi
	$(PY) -m services.launcher

# The tiers (tests/README.md): unit (unmarked), service, e2e. `make test` runs
# unit and service together on TEST_WORKERS pytest-xdist workers (each its own
# Redis and ports), then e2e serially, and ends with one summary line of both.
# PYTEST_ARGS go to every pytest run (e.g. PYTEST_ARGS="--durations=20").
TEST_WORKERS ?= auto
TIERS := $(PY) tools/test_tiers.py --workers $(TEST_WORKERS)

test: proto
	$(TIERS) $(PYTEST_ARGS)

test-fast: proto
	$(TIERS) --only unit --no-slow $(PYTEST_ARGS)

test-unit: proto
	$(TIERS) --only unit $(PYTEST_ARGS)

test-service: proto
	$(TIERS) --only service $(PYTEST_ARGS)

test-e2e: proto
	$(TIERS) --only e2e $(PYTEST_ARGS)

# buf lint (buf.yaml) and buf breaking against protos/releases/; buf comes from
# the TypeScript client's npm packages (npm ci on the first run).
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) tools/ts_client.py lint

# The TypeScript client (clients/typescript): npm ci when the lockfile changed,
# then its stubs from the protos (the tests in tests/typescript do this too).
ts-client: $(STAMP)
	$(PY) tools/ts_client.py generate

# A release writes the image of its API (make api-release TAG=v0.2.0) into
# protos/releases/: the newest one is what buf breaking compares against.
api-release: $(STAMP)
	$(PY) tools/ts_client.py release $(TAG)

bench: proto
	$(PY) -m bench.run_all

clean:
	rm -rf $(GEN) $(VENV) clients/typescript/node_modules clients/typescript/src/gen clients/typescript/.proto-deps

# Written from the registry (committed output): the games' service.proto files (one
# template), the deployment's per-game parts and the web app's registry module.
service-protos: $(STAMP) $(REGISTRY)
	$(PY) tools/gen_service_protos.py
	$(PY) tools/gen_deploy.py
	$(PY) tools/gen_web_registry.py
	$(PY) tools/gen_ts_services.py

# The web frontend (web/): npm dependencies installed only when the lockfile
# changed, the static build in web/dist rebuilt only when its sources, the
# protos or the registry changed; both are kept per machine by the hash of what
# they are made from (tools/npm_cache.py, $ROOST_CACHE or ~/.cache/roost), so a
# fresh clone copies them instead of running npm again. `make web-test` runs
# the web app's unit tests.
.PHONY: web web-deps web-test

web-deps:
	python3 tools/npm_cache.py deps web

web:
	python3 tools/npm_cache.py web-build

web-test: web-deps
	cd web && npm test
