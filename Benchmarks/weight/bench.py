"""What Tunnel weighs: the installed programs' sizes, a single query's start-up beside a static Swift hello
built the same way, and (with --clean-clone) a new user's first answer and the test suite from a fresh clone.

    python3 Benchmarks/weight/bench.py --prefix PREFIX [--runs N] [--clean-clone] [--out FILE]

PREFIX holds `bin/tunnel` and `bin/tunnel-serve` as Scripts/install puts them (Scripts/bench --weight installs
them first). The hello is built here, with the same flags (release, static Swift runtime, no PIE, no exported
symbols, linked by lld) and stripped the same way. Start-ups are whole processes, the two programs interleaved run by run;
the figures are medians of wall time. --clean-clone clones the checkout's HEAD into a temporary folder and
times, there, the README's two commands: `Scripts/setup && swift run tunnel Skjern`, then `Scripts/test`; and a
package that uses TunnelGeo alone (`Scripts/test --downstream`)."""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def megabytes(path):
    return os.path.getsize(path) / 1e6


def build_hello(work):
    """A static Swift hello, release, stripped as Scripts/install strips; its path."""
    package = os.path.join(work, "hello")
    os.makedirs(os.path.join(package, "Sources", "hello"), exist_ok=True)
    with open(os.path.join(package, "Package.swift"), "w") as out:
        out.write('// swift-tools-version:6.1\nimport PackageDescription\n'
                  'let package = Package(name: "hello", targets: [.executableTarget(name: "hello")])\n')
    with open(os.path.join(package, "Sources", "hello", "main.swift"), "w") as out:
        out.write('print("hello")\n')
    flags = ["-c", "release", "--static-swift-stdlib", "--package-path", package]
    # As Scripts/install builds (a fixed-address executable unless TUNNEL_PIE=1).
    if os.environ.get("TUNNEL_PIE", "0") != "1":
        flags += ["-Xswiftc", "-Xclang-linker", "-Xswiftc", "-no-pie"]
    flags += ["-Xlinker", "--no-export-dynamic", "-Xswiftc", "-use-ld=lld"]
    subprocess.run(["swift", "build"] + flags, check=True, stdout=sys.stderr)
    folder = subprocess.run(["swift", "build"] + flags + ["--show-bin-path"], check=True, capture_output=True,
                            text=True).stdout.strip()
    stripped = os.path.join(work, "hello-stripped")
    subprocess.run(["objcopy", "--strip-all", os.path.join(folder, "hello"), stripped], check=True)
    return stripped


def wall(command, environment):
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    return time.perf_counter() - started


def timed(command, cwd, environment=None):
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd, shell=True, env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        sys.exit("weight: `%s` failed (exit %d):\n%s" % (command, result.returncode, result.stdout[-4000:]))
    return seconds, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", required=True, help="where Scripts/install put tunnel and tunnel-serve")
    parser.add_argument("--runs", type=int, default=200, help="start-ups of each program (default 200)")
    parser.add_argument("--clean-clone", action="store_true", help="also time a fresh clone's first answer and tests")
    parser.add_argument("--out", help="also write the report to this file")
    arguments = parser.parse_args()

    work = tempfile.mkdtemp(prefix="tunnel-weight-")
    lines = ["# What Tunnel weighs", "",
             "%s; %s, %d cores; %s." % (time.strftime("%Y-%m-%d"), platform.machine(), os.cpu_count(),
                                        platform.platform()),
             "Measured by `Scripts/bench --weight%s --runs %d`." % (
                 " --clean-clone" if arguments.clean_clone else "", arguments.runs), ""]
    try:
        hello = build_hello(work)
        tunnel = os.path.join(arguments.prefix, "bin", "tunnel")
        serve = os.path.join(arguments.prefix, "bin", "tunnel-serve")
        data = os.path.join(arguments.prefix, "share", "tunnel", "Data")
        lines += ["## Installed programs (stripped; debugging information beside them in bin/.debug)", "",
                  "| program | size | its debugging information |", "|---|---:|---:|"]
        # A prefix from `Scripts/install --only tunnel` has no tunnel-serve.
        for path in (tunnel, serve) if os.path.exists(serve) else (tunnel,):
            debug = os.path.join(arguments.prefix, "bin", ".debug", os.path.basename(path) + ".debug")
            lines.append("| %s | %.1f MB | %.1f MB |" % (os.path.basename(path), megabytes(path),
                                                     megabytes(debug) if os.path.exists(debug) else 0))
        lines.append("| a static Swift hello, built and stripped the same way | %.1f MB | |" % megabytes(hello))

        environment = dict(os.environ, TUNNEL_DATA=data)
        environment.pop("TUNNEL_CACHE_DIR", None)
        query = [tunnel, "where", "56", "8.5"]
        for _ in range(5):  # warm the page cache for both
            wall([hello], environment)
            wall(query, environment)
        hellos, queries = [], []
        for _ in range(arguments.runs):
            hellos.append(wall([hello], environment))
            queries.append(wall(query, environment))
        h, q = statistics.median(hellos), statistics.median(queries)
        lines += ["", "## A single query's start-up (%d runs each, interleaved; medians of wall time)" % arguments.runs,
                  "", "| command | median | p90 | vs hello |", "|---|---:|---:|---:|",
                  "| static Swift hello | %.2f ms | %.2f ms | 1× |" % (
                      h * 1e3, statistics.quantiles(hellos, n=10)[-1] * 1e3),
                  "| tunnel where 56 8.5 | %.2f ms | %.2f ms | %.2f× |" % (
                      q * 1e3, statistics.quantiles(queries, n=10)[-1] * 1e3, q / h)]

        if arguments.clean_clone:
            clone = os.path.join(work, "tunnel")
            subprocess.run(["git", "clone", "--quiet", ROOT, clone], check=True)
            first, output = timed("Scripts/setup && swift run tunnel Skjern", clone)
            tests, test_output = timed("Scripts/test", clone)
            downstream, downstream_output = timed("Scripts/test --downstream", clone)
            said = [line for line in downstream_output.splitlines() if line.startswith("test: a package using")]
            lines += ["", "## From a fresh clone (`git clone`, then the README's commands)", "",
                      "| command | wall |", "|---|---:|",
                      "| Scripts/setup && swift run tunnel Skjern | %.0f s |" % first,
                      "| Scripts/test | %.0f s |" % tests,
                      "| Scripts/test --downstream (a package using TunnelGeo alone, from nothing) | %.0f s |" % downstream,
                      ""] + said
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if arguments.out:
        with open(arguments.out, "w") as out:
            out.write(report)


if __name__ == "__main__":
    main()
