#!/usr/bin/env python3
"""A Docker API proxy for an engine older than the test harness's client.

    docker-api-proxy.py LISTEN_SOCKET UPSTREAM_SOCKET MAX_API_VERSION

testcontainers 0.27 (bollard 0.20) asks for API 1.52 and does not negotiate; Debian
bookworm's docker.io 20.10 answers at most 1.41 and refuses anything newer ("client
version 1.52 is too new"). This proxy, on a unix socket of its own, rewrites the version
in each request's path down to MAX_API_VERSION (the requests the harness makes — create,
start, inspect, logs, remove a container — mean the same there) and passes everything
else through unchanged. One request per connection (`Connection: close` is added), so
every request line is seen; upgraded connections (attach, exec) are passed through as
they are. Started and stopped by tests/docker.sh; used only by the tests' DOCKER_HOST.
"""
import os
import re
import socket
import sys
import threading

listen, upstream, maxver = sys.argv[1], sys.argv[2], sys.argv[3]
MAX = tuple(int(x) for x in maxver.split("."))
VERSION = re.compile(rb"^([A-Z]+ )/v(\d+)\.(\d+)/")


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def handle(client):
    up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        up.connect(upstream)
        head = b""
        while b"\r\n\r\n" not in head:
            data = client.recv(65536)
            if not data:
                return
            head += data
        head, rest = head.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        m = VERSION.match(lines[0])
        if m and (int(m[2]), int(m[3])) > MAX:
            lines[0] = m[1] + b"/v%d.%d/" % MAX + lines[0][m.end():]
        upgrade = any(l.lower().startswith(b"upgrade:") for l in lines[1:])
        if not upgrade:
            lines = [lines[0]] + [
                l for l in lines[1:] if not l.lower().startswith(b"connection:")
            ] + [b"Connection: close"]
        up.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + rest)
        back = threading.Thread(target=pump, args=(up, client), daemon=True)
        back.start()
        if upgrade:
            pump(client, up)
            back.join()
        else:
            # The request body, then the answer; the engine closes after it.
            threading.Thread(target=pump, args=(client, up), daemon=True).start()
            back.join()
    except OSError as e:
        print(f"docker-api-proxy: {e}", file=sys.stderr)
    finally:
        for s in (client, up):
            try:
                s.close()
            except OSError:
                pass


def main():
    try:
        os.unlink(listen)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(listen)
    os.chmod(listen, 0o660)
    server.listen(64)
    while True:
        client, _ = server.accept()
        threading.Thread(target=handle, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()
