"""`ragcite serve` as a child process for the scripts that drive it (mcp-clients.py,
schemathesis-api.py): started on a free loopback port, stopped with SIGTERM."""

import signal
import subprocess
import threading


class Server:
    """`ragcite serve --port 0`, its address read from the first stderr line, the rest drained."""

    def __init__(self, binary, *args):
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--isolated", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.first_line = self.process.stderr.readline().rstrip("\n")
        self.log = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stderr:
            self.log.append(line.rstrip("\n"))

    def stop(self):
        """SIGTERM, then the exit code (None when it did not exit within 15 s, then killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
