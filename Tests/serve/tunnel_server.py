"""One `tunnel serve` process for the serve tests and the serve benchmark: start it, find its address, read its memory.

    with TunnelServer("/path/to/tunnel", "/path/to/Data", "--idle-timeout", "2") as server:
        urllib.request.urlopen(server.url + "/status")
        server.rss_kib()            # VmRSS from /proc/PID/status
        server.stop()               # SIGTERM, then its exit status

The server is started on 127.0.0.1 with `--port 0`; its address is the one it prints on standard error
(`listening on http://…`). Standard error is read on a thread from then on, so that the access log never fills the
pipe; its last lines are kept for failure messages.
"""

import collections
import os
import re
import select
import signal
import subprocess
import threading
import time

LISTENING = re.compile(r"listening on (http://\S+)")


class ServerError(Exception):
    """The server did not start, or stopped in a way it should not have; the message quotes its standard error."""


def wait_for_binary(path, seconds=180):
    """Waits while `path` is missing or not executable (a rebuild replaces it); raises ServerError after `seconds`."""
    deadline = time.monotonic() + seconds
    while not os.access(path, os.X_OK):
        if time.monotonic() > deadline:
            raise ServerError("%s is missing or not executable after %d s" % (path, seconds))
        time.sleep(2)


class TunnelServer:
    def __init__(self, tunnel, data, *options, startup_seconds=60, log=None):
        """`log`: a file to which the whole of standard error is appended as well (a crash's every thread)."""
        self.tunnel, self.data, self.options = tunnel, data, list(options)
        self.log = log
        self.startup_seconds = startup_seconds
        self.process = None
        self.url = None
        self.lines = collections.deque(maxlen=2000)
        self.line_count = 0
        self._reader = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *_):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    @property
    def pid(self):
        return self.process.pid

    @property
    def host_port(self):
        """("127.0.0.1", port) from the URL the server printed."""
        address = self.url.split("//", 1)[1].rstrip("/")
        host, port = address.rsplit(":", 1)
        return host.strip("[]"), int(port)

    def start(self):
        wait_for_binary(self.tunnel)
        command = [self.tunnel, "serve", "--host", "127.0.0.1", "--port", "0", "--data", self.data] + self.options
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + self.startup_seconds
        pending = b""
        stream = self.process.stderr
        while self.url is None:
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                self.process.kill()
                self.process.wait()
                raise ServerError("`%s` printed no 'listening on http://…' within %d s (exit %s); stderr:\n%s"
                                  % (" ".join(command), self.startup_seconds, self.process.returncode,
                                     "\n".join(self.lines) + pending.decode(errors="replace")))
            ready, _, _ = select.select([stream], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                continue
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                line = raw.decode(errors="replace")
                self._keep(line)
                match = LISTENING.search(line)
                if match and self.url is None:
                    self.url = match.group(1).rstrip("/")
        if pending:
            self._keep(pending.decode(errors="replace"))
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        return self

    def _drain(self):
        for raw in self.process.stderr:
            self._keep(raw.decode(errors="replace").rstrip("\n"))
            self.line_count += 1

    def _keep(self, line):
        self.lines.append(line)
        if self.log:
            with open(self.log, "a") as handle:
                handle.write(line + "\n")

    def rss_kib(self):
        """The server's resident memory in KiB (VmRSS), or None once it has exited."""
        try:
            with open("/proc/%d/status" % self.process.pid) as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except FileNotFoundError:
            return None
        return None

    def stop(self, signal_number=signal.SIGTERM, timeout=30):
        """Sends `signal_number` (none when None: one was sent already, and a second would end the server at once)
        and waits up to `timeout` s; returns the exit status (None if it had to be killed)."""
        if signal_number is not None and self.process.poll() is None:
            self.process.send_signal(signal_number)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        if self._reader is not None:
            self._reader.join(timeout=5)
        return status

    def tail(self, count=20):
        """The last lines of standard error; from a crash, the access log lines before it and the crashed thread."""
        lines = list(self.lines)
        crash = next((index for index, line in enumerate(lines) if "*** Signal" in line or "Fatal error" in line),
                     None)
        if crash is None:
            return "\n".join(lines[-count:])
        thread = next((index for index, line in enumerate(lines) if line.startswith("Thread") and "crashed:" in line),
                      crash)
        return "\n".join(lines[max(0, crash - 8):crash + 4] + ["…"] + lines[thread:thread + 14])
