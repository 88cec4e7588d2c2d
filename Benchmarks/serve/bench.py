"""`tunnel serve` under wrk: requests/s, p50 and p99 by endpoint and connection count, and the server's memory.

    Scripts/bench --serve [--duration 10] [--connections 1,32,256]     (builds tunnel optimised first)
    Scripts/bench --serve --million                                    1,000,000 /reverse requests, VmRSS every 100 k
    python3 Benchmarks/serve/bench.py --tunnel PATH [--data DIR] [--out FILE] [...]

One server (`--quiet`, so that the access log is not what is measured) answers wrk with random_points.lua: random
points, uniform on the sphere and seeded, for /reverse?format=json and /v1/where, and /status, at each connection
count for --duration seconds each. wrk's threads are min(connections, cores). The report is a markdown table on
standard output and in --out; the server's resident memory (VmRSS) is read from /proc before and after each run.
Needs wrk (Debian's wrk package).
"""

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "serve"))
from tunnel_server import TunnelServer  # noqa: E402

SCRIPT = os.path.join(HERE, "random_points.lua")
ENDPOINTS = [("/reverse?format=json", "/reverse?format=json&lat=…&lon=…"), ("/v1/where", "/v1/where?lat=…&lon=…"),
             ("/status", "/status")]
RESULT = re.compile(r"^result (.*)$", re.MULTILINE)


def run_wrk(url, path, connections, seconds, seed=7):
    """wrk's numbers from random_points.lua's `done` line, as a dict of ints."""
    threads = max(1, min(connections, os.cpu_count() or 1))
    command = ["wrk", "-t%d" % threads, "-c%d" % connections, "-d%ds" % seconds, "--timeout", "10s", "-s", SCRIPT,
               url, "--", path, str(seed)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    match = RESULT.search(finished.stdout)
    if finished.returncode != 0 or match is None:
        raise RuntimeError("`%s` failed (exit %d):\n%s%s" % (" ".join(command), finished.returncode, finished.stdout,
                                                             finished.stderr))
    return {key: int(value) for key, value in (item.split("=") for item in match.group(1).split())}


def megabytes(kib):
    return "%.1f MiB" % (kib / 1024) if kib is not None else "gone"


def milliseconds(microseconds):
    return "%.2f ms" % (microseconds / 1000)


def header(arguments, server):
    return ["# tunnel serve under wrk", "",
            "%s, %d cores, %s; server `%s serve --quiet%s` (pid %d); wrk %s." % (
                platform.node() or "this machine", os.cpu_count() or 0, platform.platform(),
                os.path.basename(arguments.tunnel), "".join(" " + option for option in server.options[1:]),
                server.pid, wrk_version()), ""]


def wrk_version():
    finished = subprocess.run(["wrk", "--version"], capture_output=True, text=True)
    match = re.search(r"wrk (\S+)", finished.stdout + finished.stderr)
    return match.group(1) if match else "(unknown version)"


def throughput(arguments):
    connection_counts = [int(count) for count in arguments.connections.split(",")]
    options = ["--quiet"] + (["--threads", str(arguments.threads)] if arguments.threads else [])
    with TunnelServer(arguments.tunnel, arguments.data, *options) as server:
        lines = header(arguments, server)
        rss_before = server.rss_kib()
        lines += ["Each row: %d s of wrk with random_points.lua (seeded, uniform on the sphere). VmRSS before the "
                  "first run: %s." % (arguments.duration, megabytes(rss_before)), "",
                  "| endpoint | connections | requests/s | p50 | p99 | errors | VmRSS after |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for path, label in ENDPOINTS:
            for connections in connection_counts:
                print("wrk: %s at %d connections for %d s" % (label, connections, arguments.duration),
                      file=sys.stderr, flush=True)
                result = run_wrk(server.url, path, connections, arguments.duration)
                errors = sum(result[key] for key in ["non2xx", "connect", "read", "write", "timeout"])
                rate = result["requests"] / (result["duration_us"] / 1e6)
                lines.append("| `%s` | %d | %s | %s | %s | %d | %s |" % (
                    label, connections, "{:,.0f}".format(rate), milliseconds(result["p50_us"]),
                    milliseconds(result["p99_us"]), errors, megabytes(server.rss_kib())))
        rss_after = server.rss_kib()
        alive = server.process.poll() is None
        status = server.stop()
        lines += ["", "VmRSS: %s before, %s after every run; the server %s, and exited %s on SIGTERM." % (
            megabytes(rss_before), megabytes(rss_after), "was still running" if alive else "had died",
            status)]
    return lines


def million(arguments):
    """Drives arguments.total /reverse requests in rounds of about 100,000 and reads VmRSS after each round."""
    options = ["--quiet"] + (["--threads", str(arguments.threads)] if arguments.threads else [])
    step = arguments.total // 10
    with TunnelServer(arguments.tunnel, arguments.data, *options) as server:
        lines = header(arguments, server)
        lines += ["%s `/reverse?format=json&lat=…&lon=…` requests from wrk at 32 connections, in rounds timed to "
                  "about %s requests each." % ("{:,}".format(arguments.total), "{:,}".format(step)), "",
                  "| requests so far | VmRSS | requests/s in the round |", "|---:|---:|---:|",
                  "| 0 | %s | |" % megabytes(server.rss_kib())]
        done, seed, seconds = 0, 1, 2
        started = time.monotonic()
        while done < arguments.total:
            result = run_wrk(server.url, "/reverse?format=json", 32, seconds, seed=seed)
            rate = result["requests"] / (result["duration_us"] / 1e6)
            done += result["requests"]
            seed += 1
            lines.append("| %s | %s | %s |" % ("{:,}".format(done), megabytes(server.rss_kib()),
                                              "{:,.0f}".format(rate)))
            print(lines[-1], file=sys.stderr, flush=True)
            seconds = max(1, min(60, round(min(step, arguments.total - done) / max(rate, 1))))
        status = server.stop()
        lines += ["", "%s requests in %.0f s; the server exited %s on SIGTERM." % (
            "{:,}".format(done), time.monotonic() - started, status)]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tunnel", required=True, help="the tunnel executable to serve with")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data"), help="the place data folder")
    parser.add_argument("--duration", type=int, default=10, help="seconds of wrk per endpoint and connection count")
    parser.add_argument("--connections", default="1,32,256", help="comma-separated connection counts")
    parser.add_argument("--threads", type=int, help="the server's --threads (default: its own)")
    parser.add_argument("--million", action="store_true", help="memory over a million /reverse requests instead")
    parser.add_argument("--total", type=int, default=1_000_000, help="requests for --million")
    parser.add_argument("--out", help="also write the report here (default: .build/bench/serve.md, or "
                                      "serve-million.md with --million)")
    arguments = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench: wrk is not installed (apt-get install wrk; Scripts/bench --serve does it)")
    out = arguments.out or os.path.join(ROOT, ".build", "bench",
                                        "serve-million.md" if arguments.million else "serve.md")
    lines = million(arguments) if arguments.million else throughput(arguments)
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as handle:
        handle.write(report)


if __name__ == "__main__":
    main()
