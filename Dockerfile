# boardbot bot server: `docker build -t boardbot .` then
# `docker run -p 50051:50051 -p 127.0.0.1:9100:9100 boardbot` (metrics: publish them only where
# Prometheus can reach them; inside the container they listen on all of its addresses).
# Every `boardbot serve` flag is also an environment variable (BOARDBOT_PORT, BOARDBOT_WORKERS,
# BOARDBOT_QUEUE, BOARDBOT_TOKEN, BOARDBOT_TLS_CERT, BOARDBOT_TLS_KEY, BOARDBOT_METRICS_PORT,
# BOARDBOT_METRICS_HOST, BOARDBOT_MAX_TIME_MS, ...).
#
# No container engine runs in the test suite: tests/packaging/test_container_build.py assembles
# the build stage's context from the COPY lines below (and .dockerignore), builds the wheel from
# it, installs it into a clean virtual environment and starts a server; tests/packaging/
# test_wheel.py installs the wheel with the native core and serves from it. A folder of the
# package missing here fails the first.

# ---- Rust toolchain, only to compile the native core in the build stage ----
FROM rust:1.85-slim-bookworm AS rust

# ---- build stage: the package's one wheel, the native core compiled into it ----
FROM python:3.11-slim-bookworm AS build

# The wheel is the one `make dist` builds: setuptools-rust compiles core/bindings (the module
# boardbot_native) into it. The runtime image carries neither the toolchain nor the sources.
COPY --from=rust /usr/local/cargo /usr/local/cargo
COPY --from=rust /usr/local/rustup /usr/local/rustup
ENV RUSTUP_HOME=/usr/local/rustup \
    CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:$PATH
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/build
ENV PATH=/opt/build/bin:$PATH

WORKDIR /src

# Layers from the least to the most often changed: the build backend (from its lock file), the
# Rust crates (from the Cargo manifests and Cargo.lock alone), the sources. A change to the
# Python sources rebuilds the wheel only, its crates already downloaded.
COPY deps/build.txt ./deps/
RUN pip install --require-hashes -r deps/build.txt

COPY core/Cargo.toml core/Cargo.lock ./core/
COPY core/rules/Cargo.toml ./core/rules/
COPY core/search/Cargo.toml ./core/search/
COPY core/bindings/Cargo.toml ./core/bindings/
# Empty library roots stand in for the sources, so that cargo can read the workspace.
RUN for crate in core/*/; do mkdir "${crate}src" && touch "${crate}src/lib.rs"; done \
    && cargo fetch --locked --manifest-path core/Cargo.toml \
    && rm -r core/*/src

# Every folder mapped in pyproject.toml's [tool.setuptools] package-dir, the files its [project]
# table names (readme, license-files), and the Rust core (which compiles in the Python engine's
# component data: include_str!, and LEDA's through the build script of core/rules).
COPY pyproject.toml ./
COPY README.md LICENSE ./
COPY core ./core
COPY boardbot ./boardbot
COPY engine ./engine
COPY search ./search
COPY jobs ./jobs
COPY learn ./learn
COPY service ./service
COPY cli ./cli
COPY tools ./tools
COPY proto ./proto
COPY web ./web
# `optional = true` lets a build without cargo go on without the native core: here that would
# be a fault, so the wheel must carry the module.
RUN pip wheel --no-deps --no-build-isolation -w /wheels . \
    && python -m zipfile -l /wheels/boardbot-*.whl | grep -q "^boardbot_native\." \
    && rm -rf core/target build

# ---- runtime stage: the locked dependencies and the wheel, run as an unprivileged user ----
FROM python:3.11-slim-bookworm AS runtime

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# tini as PID 1: forwards SIGTERM to the server and reaps orphaned processes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 999 boardbot \
    && useradd --system --uid 999 --gid boardbot --home-dir /home/boardbot --create-home boardbot
RUN python -m venv /opt/boardbot
ENV PATH=/opt/boardbot/bin:$PATH
COPY deps/runtime.txt /tmp/runtime.txt
RUN pip install --require-hashes -r /tmp/runtime.txt && rm /tmp/runtime.txt
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/boardbot-*.whl \
    && rm -r /tmp/wheels \
    && pip check \
    && cd / && python -c "import boardbot.proto.boardbot.v1.boardbot_pb2_grpc, boardbot.service.server, boardbot.web.gateway, boardbot.engine.leda, boardbot_native"

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    BOARDBOT_HOST=0.0.0.0 \
    BOARDBOT_PORT=50051 \
    BOARDBOT_METRICS_PORT=9100 \
    BOARDBOT_METRICS_HOST=0.0.0.0 \
    BOARDBOT_QUEUE=16 \
    BOARDBOT_DRAIN=2 \
    BOARDBOT_GRACE=20

USER boardbot
WORKDIR /home/boardbot
EXPOSE 50051 9100

# The gRPC health service answers without the token. With TLS on, also set BOARDBOT_TLS_CA
# (and a certificate valid for 127.0.0.1) so the check can verify the server.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD boardbot health --server "127.0.0.1:${BOARDBOT_PORT}" || exit 1

# SIGTERM: health turns NOT_SERVING for BOARDBOT_DRAIN seconds, then in-flight requests get up
# to BOARDBOT_GRACE seconds; workers still busy then are killed and the process exits. Give the
# orchestrator more than both (`docker stop -t 30`).
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--", "boardbot", "serve"]
