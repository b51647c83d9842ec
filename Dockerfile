# boardbot bot server: `docker build -t boardbot .` then
# `docker run -p 50051:50051 -p 127.0.0.1:9100:9100 boardbot` (metrics: publish them only where
# Prometheus can reach them; inside the container they listen on all of its addresses).
# Every `boardbot serve` flag is also an environment variable (BOARDBOT_PORT, BOARDBOT_WORKERS,
# BOARDBOT_QUEUE, BOARDBOT_TOKEN, BOARDBOT_TLS_CERT, BOARDBOT_TLS_KEY, BOARDBOT_METRICS_PORT,
# BOARDBOT_METRICS_HOST, BOARDBOT_MAX_TIME_MS, ...).
#
# No container engine runs in the test suite: tests/packaging/test_container_build.py assembles
# the build stage's context from the COPY lines below (and .dockerignore), builds the wheel from
# it, installs it into a clean virtual environment and starts a server. A folder of the package
# missing here fails that test.

# ---- Rust toolchain, only to compile the native core in the build stage ----
FROM rust:1.85-slim-bookworm AS rust

# ---- build stage: install the package, its dependencies and the native core into a venv ----
FROM python:3.11-slim-bookworm AS build

# The native core (core/, module boardbot_native) is compiled here and installed as a wheel;
# the runtime image carries neither the toolchain nor the sources.
COPY --from=rust /usr/local/cargo /usr/local/cargo
COPY --from=rust /usr/local/rustup /usr/local/rustup
ENV RUSTUP_HOME=/usr/local/rustup \
    CARGO_HOME=/usr/local/cargo
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/boardbot
ENV PATH=/opt/boardbot/bin:$PATH
# maturin (pinned) lives in a venv of its own, so the runtime image never carries it.
RUN python -m venv /opt/maturin && /opt/maturin/bin/pip install maturin==1.16.0

WORKDIR /src

# Layers from the least to the most often changed: the Python dependencies (read from
# pyproject.toml, without the package itself), the Rust crates (from the Cargo manifests and
# Cargo.lock alone), the native core, the package. A change to the Python sources rebuilds the
# last layer only; one to core/ recompiles the native core, its crates already downloaded.
COPY pyproject.toml ./
RUN pip install --upgrade pip \
    && python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

COPY core/Cargo.toml core/Cargo.lock ./core/
COPY core/rules/Cargo.toml ./core/rules/
COPY core/search/Cargo.toml ./core/search/
COPY core/bindings/Cargo.toml ./core/bindings/
# Empty library roots stand in for the sources, so that cargo can read the workspace.
RUN for crate in core/*/; do mkdir "${crate}src" && touch "${crate}src/lib.rs"; done \
    && /usr/local/cargo/bin/cargo fetch --locked --manifest-path core/Cargo.toml \
    && rm -r core/*/src

# The Rust core compiles in the Python engine's component data (include_str!, and LEDA's
# through the build script of core/rules).
COPY engine/legend_raiders/components.json ./engine/legend_raiders/
COPY engine/leda/components.json ./engine/leda/
COPY core ./core
RUN PATH=/usr/local/cargo/bin:$PATH /opt/maturin/bin/maturin build --release --locked \
        -m core/bindings/Cargo.toml -i /opt/boardbot/bin/python -o /tmp/wheels \
    && pip install /tmp/wheels/boardbot_native-*.whl \
    && rm -rf /tmp/wheels core/target

# Every folder mapped in pyproject.toml's [tool.setuptools] package-dir, and the files its
# [project] table names (readme, license-files).
COPY README.md LICENSE ./
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
RUN pip install --no-deps . \
    && pip check \
    && cd / && python -c "import boardbot.proto.boardbot.v1.boardbot_pb2_grpc, boardbot.service.server, boardbot.web.gateway, boardbot.engine.leda, boardbot_native"

# ---- runtime stage: the virtual environment only, run as an unprivileged user ----
FROM python:3.11-slim-bookworm AS runtime

# tini as PID 1: forwards SIGTERM to the server and reaps orphaned processes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system boardbot \
    && useradd --system --gid boardbot --home-dir /home/boardbot --create-home boardbot
COPY --from=build /opt/boardbot /opt/boardbot

ENV PATH=/opt/boardbot/bin:$PATH \
    PYTHONUNBUFFERED=1 \
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
