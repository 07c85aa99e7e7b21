"""Start-up of a process the computer thinks in (server/ai.py): it exits when the server does, however
the server dies (a SIGKILL runs no clean-up in the server, so the worker must notice by itself), and
compiles the engine's tables before its first move."""
from __future__ import annotations

import os
import threading
import time

from ..engine import warm_up

PARENT_CHECK_S = 0.2  # how often a worker checks that the server still lives


def start_worker(server_pid: int) -> None:
    """Process-pool initializer: watch the server (`server_pid`, the pool's owner), then warm up."""
    threading.Thread(target=exit_with, args=(server_pid,), name="exit-with-server", daemon=True).start()
    warm_up()


def exit_with(server_pid: int) -> None:
    """Return never; end this process as soon as `server_pid` is no longer its parent: a process
    whose parent died is adopted by another (init or a subreaper), so its parent id changes. Also
    true at once if the server died before this started."""
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)  # no clean-up: nobody waits for this process's results any more
