"""What a crash costs, on the real server (`superchess serve` subprocesses,
started and SIGKILLed as in tests/server/test_process_restart.py, whose helpers this uses):

- `charge`: a blitz game is played to Player 2's first timed turn, the server is SIGKILLed and
  started again on the same data folder; reported per run: the time charged to Player 2 as its
  first state after the restart shows it, and how much of that was charged before the server
  answered its first request (the rest is this client's own requests).
- `orphans`: the computer makes its first move (so its worker process exists), the server is
  SIGKILLed; reported: how long the server's children (the worker and multiprocessing's resource
  tracker) live on (any left after 10 s are killed here).

Run from the project root (Linux: children are found in /proc):

    .venv/bin/python bench/restart.py charge --runs 5
    .venv/bin/python bench/restart.py orphans
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root, for tests.*

from tests.server.test_process_restart import (Player, Process, children, cmdline, play, receive,  # noqa: E402
                                               running)


def charge_once(folder: Path, log) -> tuple[int, int]:
    server = Process(folder / "data", log)
    try:
        p1, p2 = Player(server), Player(server)
        created = p1.http.post("/api/matches", json={"time_control": "blitz-5+0"}).json()
        gid = created["game_id"]
        p2.http.post(f"/api/invitations/{created['invite_url'].split('/')[-1]}/accept")
        with p1.socket(server, gid) as w1, p2.socket(server, gid) as w2:
            receive(w1), receive(w2)
            play(w1, [w2], "h2h4")
            play(w2, [w1], "h15h13")
            before = play(w1, [w2], "g2g4")[1]["state"]["clock"]
    finally:
        server.kill()
    server = Process(folder / "data", log)
    try:
        p2.on(server)
        after = p2.state(gid)["clock"]
        answered_at = time.time()
    finally:
        server.kill()
    p1.http.close(), p2.http.close()
    charged = before["remaining"][1] - after["remaining"][1]
    return charged, round(charged - (answered_at - server.serving_since) * 1000)


def orphans(folder: Path, log) -> None:
    server = Process(folder / "data", log)
    try:
        human = Player(server)
        gid = human.http.post("/api/matches/computer",
                              json={"variant": "chess", "level": 1, "creator_side": 1}).json()["game_id"]
        while not human.state(gid)["moves"]:
            time.sleep(0.05)
        kids = children(server.proc.pid)
        print("children:", *(f"  {k}: {cmdline(k)[:100]}" for k in kids), sep="\n")
    finally:
        server.kill()
    killed = time.monotonic()
    while any(running(k) for k in kids) and time.monotonic() - killed < 10:
        time.sleep(0.02)
    left = [k for k in kids if running(k)]
    print(f"after the SIGKILL: {len(left)} of {len(kids)} still running after {time.monotonic() - killed:.2f} s")
    for k in left:
        os.kill(k, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("probe", choices=("charge", "orphans"))
    parser.add_argument("--runs", type=int, default=5, help="charge: restarts measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "server.log", "ab") as log:
        if args.probe == "orphans":
            orphans(Path(tmp), log)
            return
        runs = [charge_once(Path(tmp) / str(i), log) for i in range(args.runs)]
        print("charged to the mover (ms):", [c for c, _ in runs])
        print("  of it before the server answered its first request (ms):", [b for _, b in runs])


if __name__ == "__main__":
    main()
