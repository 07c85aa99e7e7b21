"""`superchess engine` as a subprocess to hold a UCI conversation with, line by line."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading

ENGINE = [sys.executable, "-m", "superchess.cli", "engine"]
TIMEOUT = 60  # seconds to wait for an expected line: generous, only a hang fails


class Conversation:
    """A UCI engine process with a reader thread (readline with a timeout)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        """Lines up to and including the first one starting with `prefix`."""
        out = []
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            assert line is not None, f"engine exited while waiting for {prefix!r}: {out}"
            out.append(line)
            if line.startswith(prefix):
                return out

    def close(self) -> int:
        self.send("quit")
        return self.proc.wait(timeout=TIMEOUT)
