"""`tunnel serve` under load and under faults: run by `Scripts/test --serve`.

    python Tests/serve/load_test.py --tunnel PATH [--data DIR] [--requests 100000] [--connections 64]

Python's standard library only. Against servers it starts itself (`--idle-timeout 2`), it checks:
1. Load: 100,000 requests over 64 keep-alive connections, 5 % of them malformed (bad percent-encoding, lat=abc, a
   latitude out of range, an unknown path, a repeated key, bytes that are not UTF-8, a header over 64 KiB). No 5xx,
   no connection closed without an answer, every bad request a 4xx (a repeated key or invalid UTF-8 may also be
   answered), every 100th /v1/where equal byte for byte to `tunnel where … --format json`, every /reverse for a fixed
   point equal to the first answer for it, and resident memory (VmRSS) after 100,000 requests at most 30 % over
   what it was after 10,000.
2. Slow clients: a request line with no end is closed at the idle timeout, and so is one trickled a byte at a time.
3. A Content-Length over --max-upload is answered 413 at once, without the body being sent.
4. SIGTERM during load (batch uploads and small requests): every request sent before the signal gets its whole
   answer, the batch answers equal `tunnel batch` on the same file, and the server exits 0.
The last line says how many checks passed and failed; the exit status is 1 if any failed.
"""

import argparse
import asyncio
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tunnel_server import TunnelServer  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
IDLE_TIMEOUT = 2
MAX_UPLOAD = 8 * 1024 * 1024
FIXED_POINTS = [(56, 8.5), (-56, -171.5), (55.6761, 12.5683), (-33.9, 18.4), (0, 0), (90, 0), (-90, 0), (35.68, 139.69),
                (40.7128, -74.006), (-0.5, 180), (64.1466, -21.9426), (1.29, 103.85)]
MALFORMED = [
    ("bad percent-encoding", b"GET /v1/where?q=56%ZZ8.5 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "4xx"),
    ("lat=abc", b"GET /reverse?format=json&lat=abc&lon=8.5 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "4xx"),
    ("latitude out of range", b"GET /v1/where?lat=91&lon=8.5 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "4xx"),
    ("unknown path", b"GET /v1/nowhere?q=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "4xx"),
    ("repeated key", b"GET /v1/where?lat=56&lat=57&lon=8.5 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "any"),
    ("invalid UTF-8, percent-encoded", b"GET /v1/find?q=%FF%FEK HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "any"),
    ("invalid UTF-8, raw", b"GET /v1/find?q=K\xf8benhavn\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "any"),
    ("header over 64 KiB", b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n", "4xx"),
]
passed, failed = [], []


def check(condition, label, detail=""):
    if condition:
        passed.append(label)
        print("ok   " + label, flush=True)
    else:
        failed.append(label)
        print("FAIL " + label + (": " + detail if detail else ""), flush=True)
    return condition


def random_point(generator):
    """Uniform on the sphere."""
    return math.degrees(math.asin(generator.uniform(-1, 1))), generator.uniform(-180, 180)


class Dropped(Exception):
    """The server closed the connection without answering, or in the middle of an answer."""


async def read_response(reader):
    """(status, headers, body) of one HTTP/1.1 response; Dropped if the connection ends before it is whole."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        raise Dropped("closed after %d bytes of the response head" % len(error.partial))
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    try:
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            body = b""
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                body += await reader.readexactly(size)
                await reader.readexactly(2)
                if size == 0:
                    break
        elif status in (204, 304) or 100 <= status < 200:
            body = b""
        else:
            body = await reader.read()
            headers["connection"] = "close"
    except asyncio.IncompleteReadError as error:
        raise Dropped("status %d, closed %d bytes into the body" % (status, len(error.partial)))
    return status, headers, body


class Connection:
    """One keep-alive connection that reconnects when the server says `Connection: close`."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None
        self.opened = 0
        self.answered = 0
        self.last_answer = None

    async def request(self, raw):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=1 << 22)
            self.opened += 1
            self.answered = 0
            self.last_answer = time.monotonic()
        where = " (answer %d on this connection, %.2f s after the last)" % (self.answered + 1,
                                                                         time.monotonic() - self.last_answer)
        try:
            self.writer.write(raw)
            await self.writer.drain()
        except (ConnectionResetError, BrokenPipeError):
            pass  # the server may answer and close before reading all of an oversized request: read its answer
        try:
            answer = await read_response(self.reader)
        except (ConnectionResetError, BrokenPipeError) as error:
            await self.close()
            raise Dropped(str(error) + where)
        except Dropped as error:
            await self.close()
            raise Dropped(str(error) + where)
        self.answered += 1
        self.last_answer = time.monotonic()
        if answer[1].get("connection", "").lower() == "close":
            await self.close()
        return answer

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionResetError, BrokenPipeError):
                pass
        self.reader = self.writer = None


def get(path):
    return ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: tunnel-load-test\r\n\r\n" % path).encode()


class Load:
    """The 100,000-request run: the requests, what came back, and the memory at 10 k and at the end."""

    def __init__(self, server, total, connections, seed=7):
        self.server, self.total, self.connections = server, total, connections
        self.generator = random.Random(seed)
        self.next_index = 0
        self.completed = 0
        self.early = min(10_000, total // 10)
        self.rss_at = {}
        self.statuses = {}
        self.server_errors = []
        self.dropped = []
        self.unexpected = []
        self.where_samples = []
        self.reverse_first = {}
        self.reverse_mismatches = []
        self.reconnects = 0

    def make(self, index):
        """(kind, raw request, what to check)."""
        if index % 20 == 10:
            label, raw, expected = MALFORMED[(index // 20) % len(MALFORMED)]
            return "malformed: " + label, raw, expected
        choice = self.generator.random()
        if choice < 0.4:
            latitude, longitude = random_point(self.generator)
            return "where", get("/v1/where?lat=%.6f&lon=%.6f" % (latitude, longitude)), (latitude, longitude)
        if choice < 0.7:
            point = FIXED_POINTS[self.generator.randrange(len(FIXED_POINTS))]
            return "reverse", get("/reverse?format=json&lat=%s&lon=%s" % point), point
        if choice < 0.8:
            return "status", get("/status"), None
        if choice < 0.9:
            latitude, longitude = random_point(self.generator)
            return "antipode", get("/v1/antipode?q=%.4f+%.4f" % (latitude, longitude)), None
        latitude, longitude = random_point(self.generator)
        return "photon", get("/photon/reverse?lat=%.5f&lon=%.5f" % (latitude, longitude)), None

    async def worker(self):
        connection = Connection(*self.server.host_port)
        where_count = 0
        while self.next_index < self.total:
            index = self.next_index
            self.next_index += 1
            kind, raw, expected = self.make(index)
            try:
                status, _, body = await connection.request(raw)
            except Dropped as error:
                self.dropped.append("%s %r: %s" % (kind, raw[:120], error))
                continue
            except OSError as error:
                self.dropped.append("%s %r: connecting: %s" % (kind, raw[:120], error))
                await asyncio.sleep(0.1)
                continue
            self.completed += 1
            if self.completed == self.early:
                self.rss_at[self.early] = self.server.rss_kib()
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status >= 500:
                self.server_errors.append("%s %r -> %d %r" % (kind, raw[:120], status, body[:200]))
            elif kind.startswith("malformed"):
                if expected == "4xx" and not 400 <= status < 500:
                    self.unexpected.append("%s %r -> %d %r" % (kind, raw[:120], status, body[:200]))
            elif status != 200:
                self.unexpected.append("%s %r -> %d %r" % (kind, raw[:120], status, body[:200]))
            elif kind == "where":
                where_count += 1
                if where_count % 100 == 1:
                    self.where_samples.append((expected, body))
            elif kind == "reverse":
                first = self.reverse_first.setdefault(expected, body)
                if body != first and len(self.reverse_mismatches) < 5:
                    self.reverse_mismatches.append((expected, first[:300], body[:300]))
        self.reconnects += max(0, connection.opened - 1)
        await connection.close()

    async def run(self):
        await asyncio.gather(*(self.worker() for _ in range(self.connections)))
        self.rss_at[self.total] = self.server.rss_kib()


def cli_where(tunnel, data, point):
    finished = subprocess.run([tunnel, "where", "%.6f" % point[0], "%.6f" % point[1], "--format", "json",
                               "--data", data], capture_output=True, timeout=60)
    return finished.stdout


def check_load(arguments):
    print("== load: %d requests over %d connections" % (arguments.requests, arguments.connections), flush=True)
    with TunnelServer(arguments.tunnel, arguments.data, "--quiet", "--idle-timeout", str(IDLE_TIMEOUT),
                      log=arguments.server_log) as server:
        rss_start = server.rss_kib()
        load = Load(server, arguments.requests, arguments.connections)
        started = time.monotonic()
        asyncio.run(load.run())
        elapsed = time.monotonic() - started
        print("     %d answers in %.1f s (%.0f/s), statuses %s, %d reconnections after Connection: close"
              % (load.completed, elapsed, load.completed / elapsed, dict(sorted(load.statuses.items())),
                 load.reconnects), flush=True)
        check(not load.server_errors, "load: no 5xx", "%d, e.g. %s" % (len(load.server_errors), load.server_errors[:5]))
        check(not load.dropped, "load: no connection closed without a whole answer",
              "%d, e.g. %s" % (len(load.dropped), load.dropped[:5]))
        check(not load.unexpected, "load: every good request 200, every bad one 4xx",
              "%d, e.g. %s" % (len(load.unexpected), load.unexpected[:8]))
        check(not load.reverse_mismatches, "load: every /reverse for a fixed point equals its first answer",
              repr(load.reverse_mismatches))
        alive = server.process.poll() is None
        check(alive, "load: the server is still running", "exit %s; stderr:\n%s" % (server.process.returncode,
                                                                                    server.tail()))
        rss_early, rss_end = load.rss_at.get(load.early), load.rss_at.get(arguments.requests)
        print("     VmRSS: %s KiB at start, %s KiB after %d, %s KiB after %d"
              % (rss_start, rss_early, load.early, rss_end, arguments.requests))
        if rss_early and rss_end:
            growth = (rss_end - rss_early) / rss_early
            check(growth <= 0.30, "load: resident memory grew %.1f %% from %d to %d requests (at most 30 %%)"
                  % (growth * 100, load.early, arguments.requests))
        else:
            check(False, "load: resident memory measured after %d and %d requests" % (load.early, arguments.requests))
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            expected = list(pool.map(lambda sample: cli_where(arguments.tunnel, arguments.data, sample[0]),
                                     load.where_samples))
        differences = [(point, want[:200], got[:200]) for (point, got), want in zip(load.where_samples, expected)
                       if want != got]
        check(load.where_samples and not differences, "load: %d sampled /v1/where answers equal `tunnel where "
              "--format json` byte for byte" % len(load.where_samples), repr(differences[:3]))
        print("     (the command-line comparison took %.1f s)" % (time.monotonic() - started))
        status = server.stop()
        check(status == 0, "load: the server exits 0 on SIGTERM afterwards", "exit %s" % status)


def closed_after(sock, limit):
    """Seconds until the server closes `sock` (recv gives b"" or a reset), reading whatever it answers; None if not
    within `limit`."""
    started = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - started < limit:
        try:
            if not sock.recv(65536):
                return time.monotonic() - started
        except socket.timeout:
            continue
        except ConnectionResetError:
            return time.monotonic() - started
    return None


def check_slow_clients(arguments):
    print("== slow clients and large uploads (--idle-timeout %d, --max-upload %d)" % (IDLE_TIMEOUT, MAX_UPLOAD),
          flush=True)
    with TunnelServer(arguments.tunnel, arguments.data, "--quiet", "--idle-timeout", str(IDLE_TIMEOUT),
                      "--max-upload", str(MAX_UPLOAD), log=arguments.server_log) as server:
        host, port = server.host_port
        with socket.create_connection((host, port)) as sock:
            sock.sendall(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            after = closed_after(sock, IDLE_TIMEOUT + 10)
            check(after is not None and after <= IDLE_TIMEOUT + 2,
                  "a request head left unfinished is closed at the idle timeout (%s s)"
                  % ("%.1f" % after if after is not None else "never"))

        with socket.create_connection((host, port)) as sock:
            started = time.monotonic()
            sock.sendall(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            closed = None
            while time.monotonic() - started < 6 * IDLE_TIMEOUT:
                try:
                    sock.sendall(b"a")
                except (BrokenPipeError, ConnectionResetError):
                    closed = time.monotonic() - started
                    break
                after = closed_after(sock, 0.5)
                if after is not None:
                    closed = time.monotonic() - started
                    break
            check(closed is not None and closed <= IDLE_TIMEOUT + 2,
                  "a request head trickled a byte every 0.5 s is closed at the idle timeout (%s s)"
                  % ("%.1f" % closed if closed is not None else "not within %d" % (6 * IDLE_TIMEOUT)))

        with socket.create_connection((host, port)) as sock:
            started = time.monotonic()
            sock.sendall(b"POST /v1/batch?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                         b"Content-Length: %d\r\n\r\n" % (100 * MAX_UPLOAD))
            sock.settimeout(5)
            answer = b""
            try:
                while b"\r\n\r\n" not in answer:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            except (socket.timeout, ConnectionResetError):
                pass
            elapsed = time.monotonic() - started
            check(answer.startswith(b"HTTP/1.1 413") and elapsed < 2,
                  "Content-Length %d over --max-upload is 413 without the body (%.2f s)" % (100 * MAX_UPLOAD, elapsed),
                  repr(answer[:300]))
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(get("/status").replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
            check(answer.startswith(b"HTTP/1.1 200"), "the server still answers after the slow clients",
                  repr(answer[:200]))
        status = server.stop()
        check(status == 0, "slow clients: the server exits 0 on SIGTERM", "exit %s" % status)


def write_batch_input(path, rows=40_000):
    generator = random.Random(11)
    with open(path, "w") as handle:
        handle.write("id,lat,lon\n")
        for index in range(rows):
            handle.write("%d,%.6f,%.6f\n" % ((index,) + random_point(generator)))


async def shutdown_run(server, batch_body, expected_batch, seconds_before_signal):
    host, port = server.host_port
    batch_request = (b"POST /v1/batch?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(batch_body)) + batch_body
    signalled_at = [None]
    results = {"whole": 0, "after signal": 0, "refused": 0, "closed before answering": 0}
    problems = []

    async def worker(batch, seed):
        generator = random.Random(seed)
        connection = Connection(host, port)
        while True:
            if batch:
                raw = batch_request
            else:
                raw = get("/v1/where?lat=%.6f&lon=%.6f" % random_point(generator))
            sent_at = time.monotonic()
            try:
                status, _, body = await connection.request(raw)
            except Dropped as error:
                in_flight = signalled_at[0] is None or sent_at < signalled_at[0] - 0.1
                if in_flight:
                    problems.append("%s request sent %s: %s" % (
                        "batch" if batch else "where", "%.2f s before SIGTERM" % (signalled_at[0] - sent_at)
                        if signalled_at[0] else "while no SIGTERM had been sent", error))
                else:
                    results["closed before answering"] += 1
                return
            except OSError:
                results["refused"] += 1
                return
            results["whole"] += 1
            if signalled_at[0] is not None:
                results["after signal"] += 1
            if status >= 500 or status != 200:
                problems.append("%s -> %d %r" % ("batch" if batch else "where", status, body[:200]))
            elif batch and body != expected_batch:
                problems.append("a batch answer differs from `tunnel batch` (%d bytes, not %d)"
                                % (len(body), len(expected_batch)))

    async def signal_later():
        await asyncio.sleep(seconds_before_signal)
        signalled_at[0] = time.monotonic()
        server.process.send_signal(signal.SIGTERM)

    tasks = [worker(True, seed) for seed in range(8)] + [worker(False, seed) for seed in range(8, 24)]
    await asyncio.wait_for(asyncio.gather(signal_later(), *tasks), timeout=60)
    return signalled_at[0], results, problems


def check_shutdown(arguments):
    print("== SIGTERM during load", flush=True)
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "points.csv")
        write_batch_input(source)
        with open(source, "rb") as handle:
            batch_body = handle.read()
        expected = subprocess.run([arguments.tunnel, "batch", "--format", "csv", "--data", arguments.data, source],
                                  capture_output=True, timeout=120).stdout
        with TunnelServer(arguments.tunnel, arguments.data, "--quiet", log=arguments.server_log) as server:
            signalled_at, results, problems = asyncio.run(shutdown_run(server, batch_body, expected, 2.0))
            # The SIGTERM is sent already: the server may still be letting its last requests finish, and a
            # second signal would end it at once.
            status = server.stop(signal_number=None, timeout=30)
            exited_after = time.monotonic() - signalled_at
            print("     %s; exited %.2f s after SIGTERM" % (results, exited_after))
            check(not problems, "SIGTERM: every request in flight got its whole, right answer",
                  "%d, e.g. %s" % (len(problems), problems[:5]))
            check(results["whole"] > 0, "SIGTERM: answers came before the signal", repr(results))
            check(status == 0, "SIGTERM during load: the server exits 0", "exit %s; stderr:\n%s" % (status,
                                                                                                   server.tail()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tunnel", required=True, help="the tunnel executable to serve with")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data"), help="the place data folder")
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--server-log", help="append the servers' whole standard error to this file")
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: load,slow,shutdown")
    arguments = parser.parse_args()
    skip = set(filter(None, arguments.skip.split(",")))
    started = time.monotonic()
    for name, part in [("load", check_load), ("slow", check_slow_clients), ("shutdown", check_shutdown)]:
        if name in skip:
            continue
        part_started = time.monotonic()
        try:
            part(arguments)
        except Exception as error:  # one part failing to run is reported, and the others still run
            check(False, "%s: ran to the end" % name, "%s: %s" % (type(error).__name__, error))
        print("     (%s: %.1f s)" % (name, time.monotonic() - part_started), flush=True)
    print("load_test: %.1f s" % (time.monotonic() - started))
    for label in failed:
        print("failed: " + label)
    print("%d passed, %d failed" % (len(passed), len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
