# arbiterd: all five services in one process (the embedded mode: SQLite in
# /var/lib/arbiter/data, one gRPC port), with the `arbiter` CLI beside it
# (`docker exec <container> arbiter health`). Packages the binaries cargo built on the
# host (deploy/images/build.sh stages them); no toolchain in the image. Runs as `arbiter`.
#   docker run --network host arbiter/arbiterd            # 127.0.0.1:50051, plaintext
#   docker run -p 50051:50051 -e ARBITER_LISTEN=0.0.0.0:50051 \
#     -e ARBITER_TLS_CERT=… -e ARBITER_TLS_KEY=… arbiter/arbiterd   # off loopback: TLS
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/arbiter --create-home \
      --shell /usr/sbin/nologin arbiter
COPY arbiterd arbiter /usr/local/bin/
USER 10001:10001
WORKDIR /var/lib/arbiter
ENV ARBITER_DATA_DIR=/var/lib/arbiter/data
HEALTHCHECK --interval=5s --timeout=3s --start-period=120s --retries=3 \
  CMD bash -c 'a="${ARBITER_LISTEN:-127.0.0.1:50051}"; h="${a%:*}"; [ "$h" = 0.0.0.0 ] && h=127.0.0.1; exec 3<>"/dev/tcp/$h/${a##*:}"'
ENTRYPOINT ["/usr/local/bin/arbiterd"]
