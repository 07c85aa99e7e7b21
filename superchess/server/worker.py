"""Worker processes of the server (the computer's thinking, server/ai.py; roster previews, app.py):
each exits when the server does, however the server dies (a SIGKILL runs no clean-up in the server,
so the worker must notice by itself), and the computer's compiles the engine's tables before its
first move. A search the server no longer needs (its game moved on) is stopped through a number
in shared memory, the id of the search to stop (`stop_search`), which a thread watches while the
search runs (`think`)."""
from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from ..engine import StopRequest, warm_up

PARENT_CHECK_S = 0.2  # how often a worker checks that the server still lives
STOP_CHECK_S = 0.02  # how often a worker looks whether its search is to stop

# the id of the search to stop: made by the server, handed to its workers at their start
_stop_id = multiprocessing.get_context("spawn").Value("q", 0, lock=False)
_search_ids = itertools.count(1)


def new_search_id() -> int:
    return next(_search_ids)


def shared_stop_id():
    """The shared number `stop_search` writes: for a worker process's `start_worker`."""
    return _stop_id


def stop_search(search_id: int) -> None:
    """Stop the search `search_id` (`think`) if it is under way, wherever it runs."""
    _stop_id.value = search_id


def think(search_id: int, choose: Callable[..., str], *args) -> str:
    """`choose(*args, stop=...)` (the engine's `choose_move`) as search `search_id`, which
    `stop_search` ends early: a thread watches for it while the search runs."""
    request, done = StopRequest(), threading.Event()
    threading.Thread(target=_stop_when_asked, args=(search_id, request, done), name="search-stop",
                     daemon=True).start()
    try:
        return choose(*args, stop=request)
    finally:
        done.set()


def _stop_when_asked(search_id: int, request: StopRequest, done: threading.Event) -> None:
    while not done.wait(STOP_CHECK_S):
        if _stop_id.value == search_id:
            request.set()
            return


def start_worker(server_pid: int, warm: bool = True, stop_id=None) -> None:
    """Process-pool initializer: watch the server (`server_pid`, the pool's owner), take its number
    of the search to stop (`stop_id`), then warm the engine up (`warm`)."""
    global _stop_id
    if stop_id is not None:
        _stop_id = stop_id
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
