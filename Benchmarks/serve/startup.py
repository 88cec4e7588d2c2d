"""`tunnel serve`'s start-up on a warm index cache: from launch to its readiness line, to its first answer, and to
its first map tile.

    Scripts/bench --serve-startup [--runs 5]                    (installs tunnel and tunnel-serve first)
    python3 Benchmarks/serve/startup.py --tunnel PATH [--data DIR] [--runs 5] [--out FILE]

Each run starts `tunnel serve --port 0 --quiet` with TUNNEL_CACHE_DIR set to a folder of the benchmark's own,
which a first run (not counted) fills, so that every counted run reads its indexes from there as a restarted
service does. It times, from just before the process is started: the `listening on` line on standard error; the
first `/v1/where?q=56,8.5` answered with 200, asked as soon as that line has come; then `/tiles/0/0/0.svg` and
`/tiles/6/33/19.svg` (the first tiles of a zoom draw that zoom's labels). Then it stops the server with SIGTERM.
The report is the median and the spread of each, on standard output and in --out.
"""

import argparse
import os
import platform
import select
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
STEPS = [("listening", "`listening on` printed"), ("where", "first `/v1/where?q=56,8.5` answered"),
         ("tile", "then `/tiles/0/0/0.svg`"), ("tile6", "then `/tiles/6/33/19.svg`")]


def fetch(url):
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
        if response.status != 200:
            raise RuntimeError("%s answered %d" % (url, response.status))


def run_once(arguments, environment):
    """Seconds from launch to each step of STEPS, by name."""
    command = [arguments.tunnel, "serve", "--port", "0", "--quiet", "--data", arguments.data]
    started = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=environment)
    times = {}
    try:
        text = b""
        while b"listening on http://" not in text or not text.split(b"listening on ", 1)[1].count(b"\n"):
            ready, _, _ = select.select([process.stderr], [], [], 120)
            chunk = os.read(process.stderr.fileno(), 65536) if ready else b""
            if not chunk:
                raise RuntimeError("`%s` ended or stalled before listening:\n%s" % (" ".join(command),
                                                                                   text.decode(errors="replace")))
            text += chunk
        times["listening"] = time.monotonic() - started
        url = text.split(b"listening on ", 1)[1].split(b"\n", 1)[0].decode()
        fetch(url + "/v1/where?q=56,8.5")
        times["where"] = time.monotonic() - started
        fetch(url + "/tiles/0/0/0.svg")
        times["tile"] = time.monotonic() - started
        fetch(url + "/tiles/6/33/19.svg")
        times["tile6"] = time.monotonic() - started
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tunnel", required=True, help="the tunnel executable (tunnel-serve beside it)")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data"), help="the place data folder")
    parser.add_argument("--runs", type=int, default=5, help="counted start-ups (default 5)")
    parser.add_argument("--cache", default=os.path.join(ROOT, ".build", "bench", "startup-cache"),
                        help="the index cache folder the runs share")
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "bench", "serve-startup.md"),
                        help="also write the report here")
    arguments = parser.parse_args()
    os.makedirs(arguments.cache, exist_ok=True)
    environment = dict(os.environ, TUNNEL_CACHE_DIR=os.path.abspath(arguments.cache))
    print("startup: a first run fills %s" % arguments.cache, file=sys.stderr, flush=True)
    run_once(arguments, environment)
    runs = []
    for number in range(arguments.runs):
        runs.append(run_once(arguments, environment))
        print("startup: run %d: %s" % (number + 1, ", ".join("%s %.2f s" % (name, runs[-1][name])
                                                              for name, _ in STEPS)), file=sys.stderr, flush=True)
    lines = ["# tunnel serve's start-up on a warm index cache", "",
             "%s, %d cores, %s; `%s serve --port 0 --quiet`, %d runs after one that filled the cache; seconds "
             "from launch." % (platform.node() or "this machine", os.cpu_count() or 0, platform.platform(),
                               os.path.basename(arguments.tunnel), arguments.runs), "",
             "| step | median | fastest | slowest |", "|---|---:|---:|---:|"]
    for name, label in STEPS:
        values = [run[name] for run in runs]
        lines.append("| %s | %.2f s | %.2f s | %.2f s |" % (label, statistics.median(values), min(values),
                                                             max(values)))
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    os.makedirs(os.path.dirname(os.path.abspath(arguments.out)), exist_ok=True)
    with open(arguments.out, "w") as handle:
        handle.write(report)


if __name__ == "__main__":
    main()
