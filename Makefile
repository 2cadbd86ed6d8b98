# Arbiter — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo

.PHONY: run test test-deps build lint bench fmt distributed clean help

help:
	@echo "make run    build and start arbiterd (embedded: all services, one port, SQLite in ./arbiter-data)"
	@echo "make test   install test dependencies if missing (PostgreSQL, nats-server >= 2.10, Chromium), build, run every test"
	@echo "make lint   rustfmt check and clippy -D warnings"
	@echo "make bench  measure and write BENCHMARKS.md"

## Build and start arbiterd (embedded default). Stop with Ctrl-C (clean shutdown).
run:
	$(CARGO) build --release -p arbiterd -p arbiter-cli
	@echo "arbiterd starting; in another shell: ./target/release/arbiter health"
	./target/release/arbiterd

## Everything: dependencies, binaries (the integration tests spawn them), all tests.
test: test-deps
	$(CARGO) build --workspace --bins
	$(CARGO) test --workspace --no-fail-fast

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

## The distributed deployment on this machine: PostgreSQL, a 3-node NATS JetStream cluster, five services.
distributed: test-deps
	$(CARGO) build --release --workspace --bins
	./deploy/local-cluster.sh

clean:
	$(CARGO) clean
