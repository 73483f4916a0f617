# bgemu service image. Build: docker build -t bgemu .   Run: docker run -p 8080:8080 -v bgemu-data:/data bgemu
# Stage 1: build with the official Swift image.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev libssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
# The manifest names the test targets too; SwiftPM wants their folders even for a product build.
COPY Tests ./Tests
RUN swift build -c release --product bgemu --static-swift-stdlib \
 && install -D "$(swift build -c release --show-bin-path)/bgemu" /out/bgemu

# Stage 2: a slim runtime with only the shared libraries bgemu links.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g libssl3 libstdc++6 ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin bgemu \
 && mkdir -p /data /app \
 && chown bgemu /data
WORKDIR /app
COPY --from=build /out/bgemu /usr/local/bin/bgemu
COPY Public ./Public
COPY openapi.yaml ./openapi.yaml
ENV BGEMU_HOST=0.0.0.0 \
    BGEMU_PORT=8080 \
    BGEMU_DATABASE=/data/bgemu.sqlite \
    BGEMU_PUBLIC=/app/Public \
    BGEMU_OPENAPI=/app/openapi.yaml
VOLUME ["/data"]
USER bgemu
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${BGEMU_PORT}/healthz" >/dev/null || exit 1
ENTRYPOINT ["bgemu"]
CMD ["serve"]
