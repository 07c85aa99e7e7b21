"""Worker processes of the server (the computer's thinking, server/ai.py; roster previews, app.py):
each exits when the server does, however the server dies (a SIGKILL runs no clean-up in the server,
so the worker must notice by itself), and the computer's compiles the engine's tables before its
first move."""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from ..engine import warm_up

PARENT_CHECK_S = 0.2  # how often a worker checks that the server still lives


def start_worker(server_pid: int, warm: bool = True) -> None:
    """Process-pool initializer: watch the server (`server_pid`, the pool's owner), then warm the
    engine up (`warm`)."""
    threading.Thread(target=exit_with, args=(server_pid,), name="exit-with-server", daemon=True).start()
    if warm:
        warm_up()


def worker_pool() -> ProcessPoolExecutor:
    """One worker process for rules work whose answer is small but whose making is not (roster
    previews compile tables: seconds of work and, in the server, garbage-collection pauses of the
    whole process and memory kept in its caches)."""
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker,
                               initargs=(os.getpid(), False))


def exit_with(server_pid: int) -> None:
    """Return never; end this process as soon as `server_pid` is no longer its parent: a process
    whose parent died is adopted by another (init or a subreaper), so its parent id changes. Also
    true at once if the server died before this started."""
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)  # no clean-up: nobody waits for this process's results any more
