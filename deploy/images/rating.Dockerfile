# arbiter-rating: the rating service, one process of the
# distributed mode (deploy/compose.yml). Packages the binary cargo built on the host
# (deploy/images/build.sh stages it as ./arbiter-rating); no toolchain in the image.
# Configured by its ARBITER_* environment (`arbiter-rating --help`); runs as `arbiter`.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/arbiter --create-home \
      --shell /usr/sbin/nologin arbiter
COPY arbiter-rating /usr/local/bin/arbiter-rating
USER 10001:10001
WORKDIR /var/lib/arbiter
ENV ARBITER_KEY_DIR=/var/lib/arbiter/keys ARBITER_TOKEN_FILE=/var/lib/arbiter/tokens
# Healthy once the gRPC port accepts connections (it opens after the log's check at start).
HEALTHCHECK --interval=5s --timeout=3s --start-period=120s --retries=3 \
  CMD bash -c 'a="${ARBITER_LISTEN:-127.0.0.1:50051}"; h="${a%:*}"; [ "$h" = 0.0.0.0 ] && h=127.0.0.1; exec 3<>"/dev/tcp/$h/${a##*:}"'
ENTRYPOINT ["/usr/local/bin/arbiter-rating"]
