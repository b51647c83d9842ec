# boardbot bot server: `docker build -t boardbot .` then
# `docker run -p 50051:50051 -p 127.0.0.1:9100:9100 boardbot` (metrics: publish them only where
# Prometheus can reach them; inside the container they listen on all of its addresses).
# Every `boardbot serve` flag is also an environment variable (BOARDBOT_PORT, BOARDBOT_WORKERS,
# BOARDBOT_QUEUE, BOARDBOT_TOKEN, BOARDBOT_TLS_CERT, BOARDBOT_TLS_KEY, BOARDBOT_METRICS_PORT,
# BOARDBOT_METRICS_HOST, BOARDBOT_MAX_TIME_MS, ...).

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

WORKDIR /src
COPY pyproject.toml README.md ./
COPY boardbot ./boardbot
COPY engine ./engine
COPY search ./search
COPY jobs ./jobs
COPY service ./service
COPY cli ./cli
COPY tools ./tools
COPY proto ./proto
COPY core ./core
RUN pip install --upgrade pip \
    && pip install . \
    && pip install 'maturin>=1.5,<2' \
    && PATH=/usr/local/cargo/bin:$PATH maturin build --release -m core/bindings/Cargo.toml -o /tmp/wheels \
    && pip install /tmp/wheels/boardbot_native-*.whl \
    && pip uninstall -y maturin \
    && cd / && python -c "import boardbot.proto.boardbot.v1.boardbot_pb2_grpc, boardbot.service.server, boardbot.engine.leda, boardbot_native"

# ---- runtime stage: the virtual environment only, run as an unprivileged user ----
FROM python:3.11-slim-bookworm AS runtime

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
ENTRYPOINT ["boardbot", "serve"]
