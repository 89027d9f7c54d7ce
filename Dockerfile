# portolan in a container: `docker build -t portolan .`, then
#   docker run --rm -v "$PWD:/src" portolan -b . -f sarif -o portolan.sarif
# The build stage compiles the host and its embedded plugin bundle
# (wasm32-wasip2 components); the final image holds only the binary.
FROM rust:1.95-slim-bookworm AS build
RUN rustup target add wasm32-wasip2
WORKDIR /build
COPY . .
RUN cargo build --release --locked -p portolan \
 && strip target/release/portolan

FROM debian:bookworm-slim
# CA certificates for --send-req, --send-es, plugin downloads and the AI
# mode (rustls with the system's roots).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --create-home portolan
COPY --from=build /build/target/release/portolan /usr/local/bin/portolan
USER 10001:10001
WORKDIR /src
ENTRYPOINT ["portolan"]
CMD ["--help"]
