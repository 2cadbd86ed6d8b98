# arbiter/postgres: Debian's PostgreSQL 15 on debian:bookworm-slim, for the compose
# deployment (one database per service) and the test harness (testcontainers). Runs as
# `postgres` (uid 999). The cluster is made on first start (postgres-entrypoint.sh):
#   POSTGRES_PASSWORD_FILE  the `postgres` password (scram-sha-256 over TCP); without it
#                           every connection is trusted (tests only)
#   ARBITER_DATABASES       databases to create on first start (space-separated)
#   PGPORT, PG_LISTEN       port (5432) and listen_addresses (*; 127.0.0.1 on a host network)
# Arguments are passed to `postgres` (e.g. `-c fsync=off`). Without LLVM: the JIT (off
# here, jit=off) and its libraries are 130 of the 380 MB Debian's package brings; they are
# removed, so apt would call this image's postgresql-15 broken (nothing is installed later).
FROM debian:bookworm-slim
RUN groupadd --system --gid 999 postgres \
 && useradd --system --uid 999 --gid postgres --home-dir /var/lib/postgresql --shell /bin/bash postgres \
 && mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      -o Dpkg::Options::=--force-confold postgresql-15 \
 && dpkg --purge --force-depends libllvm14 libz3-4 >/dev/null \
 && rm -f /usr/lib/postgresql/15/lib/llvmjit*.so \
 && rm -rf /usr/lib/postgresql/15/lib/bitcode /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt \
      /var/log/dpkg.log \
 && mkdir -p /var/lib/postgresql/data /run/postgresql \
 && chown postgres:postgres /var/lib/postgresql/data /run/postgresql \
 && chmod 700 /var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/
USER postgres
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
HEALTHCHECK --interval=3s --timeout=3s --start-period=60s --retries=5 \
  CMD pg_isready -q -h 127.0.0.1 -p "${PGPORT:-5432}" -U postgres
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
