# boardbot — the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 50051

WEB_PORT ?= 8080
# Every Python dependency, extra and build requirement, pinned with hashes (deps/lockfile.py).
LOCK := deps/dev.txt
# A development install: the package editable, and the native core compiled in place by the
# build backend (setuptools-rust) when cargo is present. The build runs in this venv, from the lock.
EDITABLE = $(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .

.PHONY: install run web test lint typecheck unit proto proto-check proto-breaking proto-release native native-if-cargo native-check diff bench loadtest fuzz clean lock lock-check dist scaleout

$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --require-hashes -r $(LOCK)
	@# The binding was once a distribution of its own (boardbot-native); the package carries it now.
	@$(BIN)/python -m pip uninstall -q -y boardbot-native >/dev/null 2>&1 || true
	$(EDITABLE)
	touch $(STAMP)

install: $(STAMP)

run: install native-if-cargo
	$(BIN)/boardbot serve --host $(HOST) --port $(PORT)

# The analysis board in the browser, with a server of its own (docs/web.md).
web: install native-if-cargo
	$(BIN)/boardbot web --host $(HOST) --port $(WEB_PORT)

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest -n 2 --dist loadgroup --durations=25

test: lock-check lint typecheck native-if-cargo unit proto-check proto-breaking native-check

# Resolve the lock files again from pyproject.toml (needs the package index).
lock: install
	$(BIN)/python -m deps.lockfile write

# Fail when pyproject.toml's requirements changed since the lock files were written.
lock-check: install
	$(BIN)/python -m deps.lockfile check

# The wheel (with the native core when cargo is present) and the sdist, into dist/.
dist: install
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

# The Rust core (core/): format, lints and tests, when a Rust toolchain is present.
native-check:
	@if command -v cargo >/dev/null 2>&1; then \
	  cd core && cargo fmt --check && cargo clippy -q --locked --all-targets -- -D warnings && cargo test -q --locked; \
	else \
	  echo "(Rust core checks skipped: no cargo)"; \
	fi

# The Python binding of the Rust core (module boardbot_native), compiled in place by the build
# backend (needs cargo) and linked into the venv: an editable install maps the packages only.
native: install
	@command -v cargo >/dev/null 2>&1 || { echo "make native needs a Rust toolchain (cargo)"; exit 1; }
	CARGO_BUILD_JOBS=$${CARGO_BUILD_JOBS:-2} $(EDITABLE)
	ln -sf $(CURDIR)/$$(ls boardbot_native.*.so) "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("platlib"))')/"
	$(BIN)/python -c "import boardbot_native"

# Python and native engines stepped side by side over many random games (DIFF_STEPS steps of
# each game), then a Python-engine server and a native one answering the same RPCs
# (DIFF_RPC_CASES fuzzer requests, DIFF_RPC_GAMES recorded deals played through).
DIFF_STEPS ?= 5000000
DIFF_RPC_CASES ?= 20000
DIFF_RPC_GAMES ?= 100
diff: native
	$(BIN)/python -m tests.native.parity --steps $(DIFF_STEPS)
	$(BIN)/python -m tests.native.rpc_parity --cases $(DIFF_RPC_CASES) --games $(DIFF_RPC_GAMES)

# Build the native module when a Rust toolchain is present, so the parity tests run against it.
native-if-cargo: install
	@if command -v cargo >/dev/null 2>&1; then $(MAKE) --no-print-directory native; \
	else echo "no Rust toolchain (cargo): the native core is not built, so everything runs on the Python engines (install Rust, then make native)"; fi

# Generated through the boardbot/proto link, so the generated code imports `boardbot.proto...`.
PROTO_SOURCES := $(wildcard boardbot/proto/boardbot/v1/*.proto)
PROTOC = $(BIN)/python -m grpc_tools.protoc -I. --python_out=$(1) --pyi_out=$(1) --grpc_python_out=$(1) $(PROTO_SOURCES)

# Regenerate the committed Python code of the wire contract.
proto: install
	$(call PROTOC,.)

# Fail when the committed generated code differs from a fresh generation.
proto-check: install
	@tmp=$$(mktemp -d) && $(call PROTOC,$$tmp) && \
	  diff -r -x '__init__.py' -x '*.proto' -x '__pycache__' $$tmp/boardbot/proto/boardbot/v1 proto/boardbot/v1 \
	  && echo "generated proto code is up to date"; status=$$?; rm -rf $$tmp; exit $$status

# The wire contract against the last release's descriptor: no breaking change (docs/compatibility.md).
proto-breaking: install
	$(BIN)/python -m boardbot.tools.proto_breaking

# At a release: write the current proto as release VERSION's descriptor (docs/compatibility.md).
proto-release: install
	@test -n "$(VERSION)" || { echo "usage: make proto-release VERSION=X.Y.Z"; exit 2; }
	$(BIN)/python -m boardbot.tools.proto_breaking --write-release $(VERSION)

bench: install
	$(BIN)/boardbot bench engine --game leda --seconds 10
	$(BIN)/boardbot bench engine --game legend_raiders --players 2 --seconds 10
	$(BIN)/boardbot bench engine --game legend_raiders --players 4 --seconds 10
	$(BIN)/boardbot bench search --game leda --preset medium
	$(BIN)/boardbot bench search --game legend_raiders --players 2 --preset medium

# Load tests against a local server started for the run (minutes; not part of `make test`).
loadtest: install
	$(BIN)/python -m loadtest.run $(LOADTEST_ARGS)

# Failover under load: three replicas behind HAProxy, one killed, all rolled (docs/deploy.md,
# "Failover"; minutes, not part of `make test`, which runs a short slice of it).
scaleout: install
	$(BIN)/python -m loadtest.scaleout $(SCALEOUT_ARGS)

# Fuzzing, in process and over gRPC (5 minutes; e.g. FUZZ_ARGS="--minutes 30 --seed 7").
fuzz: install
	$(BIN)/python -m fuzz $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build dist *.egg-info boardbot_native.*.so
