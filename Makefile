# Arbiter — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo

.PHONY: run test test-binaries test-in-docker test-deps build lint bench fmt distributed images clean help

help:
	@echo "make run    build and start arbiterd (embedded: all services, one port, SQLite in ./arbiter-data)"
	@echo "make test   install test dependencies if missing (Docker, PostgreSQL, nats-server >= 2.10, Chromium), build, the images, every test (PostgreSQL in a container), the compose smoke test"
	@echo "make test-binaries  every test with the PostgreSQL and nats-server binaries (no Docker engine needed)"
	@echo "make images build the container images (release binaries; a private dockerd if no engine runs)"
	@echo "make lint   rustfmt check and clippy -D warnings"
	@echo "make bench  measure and write BENCHMARKS.md"

## Build and start arbiterd (embedded default). Stop with Ctrl-C (clean shutdown).
run:
	$(CARGO) build --release -p arbiterd --bin arbiterd -p arbiter-cli --bin arbiter
	@echo "arbiterd starting; in another shell: ./target/release/arbiter health"
	./target/release/arbiterd

## Everything: dependencies (Docker too), binaries (the integration tests spawn them), in a
## Docker engine (tests/docker.sh: the one at DOCKER_HOST, else a private dockerd it starts and
## stops) the images from the debug binaries, every test with PostgreSQL in a container
## (testcontainers), then the compose smoke test (ADR platform-012).
test:
	ARBITER_CONTAINER_DEPS=1 ./tests/install-deps.sh
	$(CARGO) build --workspace --bins
	./tests/docker.sh run $(MAKE) --no-print-directory test-in-docker

## Every test with the PostgreSQL and nats-server binaries on loopback (no Docker engine).
test-binaries: test-deps
	$(CARGO) build --workspace --bins
	ARBITER_TEST_SERVERS=binaries $(CARGO) test --workspace --no-fail-fast

## (inside tests/docker.sh run) Runs the compose smoke test even when a cargo test failed;
## fails if either did.
test-in-docker:
	./deploy/images/build.sh --profile debug
	ARBITER_IMAGE_TAG=debug ARBITER_TEST_SERVERS=containers $(CARGO) test --workspace --no-fail-fast; status=$$?; \
	ARBITER_IMAGE_TAG=debug ARBITER_BIN_DIR=target/debug ./tests/compose-smoke.sh || status=1; \
	exit $$status

## PostgreSQL server binaries, Chromium and a nats-server >= 2.10 (into .tools/bin), only if missing.
test-deps:
	./tests/install-deps.sh

build:
	$(CARGO) build --workspace --bins

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

## Measurements (release build) into BENCHMARKS.md.
bench: test-deps
	$(CARGO) build --release -p arbiter-tests --bin arbiter-bench
	$(CARGO) build --release -p arbiterd -p arbiter-cli -p arbiter-pairings
	./target/release/arbiter-bench

## The container images (deploy/images/): the five services, arbiterd (+ CLI), PostgreSQL,
## NATS, from release binaries on debian:bookworm-slim (made by debootstrap when it cannot
## be pulled). The engine: DOCKER_HOST, else a private dockerd started and stopped here
## (its images stay in .tools/docker).
images:
	ARBITER_CONTAINER_DEPS=1 ./tests/install-deps.sh
	$(CARGO) build --release -p arbiterd -p arbiter-cli
	./tests/docker.sh run ./deploy/images/build.sh

## The distributed deployment on this machine: PostgreSQL, a 3-node NATS JetStream cluster,
## five services — processes (deploy/local-cluster.sh), or with DEPLOY=compose containers of
## the images (deploy/compose.sh; the engine keeps running: tests/docker.sh stop).
distributed: test-deps
ifeq ($(DEPLOY),compose)
	$(MAKE) --no-print-directory images
	eval "$$(./tests/docker.sh start)" && ./deploy/compose.sh up
else
	$(CARGO) build --release --workspace --bins
	./deploy/local-cluster.sh
endif

clean:
	$(CARGO) clean
