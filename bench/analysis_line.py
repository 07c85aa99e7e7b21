"""The analysis board's first engine line: how long `POST /api/analysis/engine` takes on a super16
middlegame, the first time and again (a warm worker), with the depth the search reached and the line
it answered. The app starts as `serve` starts it: its analysis worker is started at the end of the
start-up and compiles the engine's tables before any analysis (`--no-prestart`: on the first
analysis instead, which then pays the process's start and the compilation); `--wait` seconds pass
between the start-up and the first analysis (0: at once, what is left of the warm-up is paid).

    PYTHONPATH=. .venv/bin/python bench/analysis_line.py [--movetime 3000] [--repeat 2] [--wait 0] [--no-prestart]

The app runs in-process (FastAPI's TestClient), its analysis pool a real spawned worker process as
in the server; run nothing else heavy meanwhile (the machine's cores are shared).
"""
from __future__ import annotations

import argparse
import tempfile
import time

from fastapi.testclient import TestClient

from superchess.server.app import create_app

# 30 plies of the computer at level 3 against itself (seeded): a super16 middlegame, Player 1 to move
MIDDLEGAME = ["k2k4", "p15p13", "p2p4", "m15m14", "a2a3", "d15d14", "b2b3", "c16i10", "l1h4", "c15c14", "d1e5",
              "j16l14", "p4p5", "p16p15", "h4k6", "i10h9", "g2g4", "i15i13", "j1n5", "l14k14", "f2e3", "p13p11",
              "n5k2", "k14j13", "m1l3", "n16d6", "h1c6", "m16l14", "e5i4", "d6j12"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=int, default=3000, help="the search's time in ms (the page's default)")
    parser.add_argument("--repeat", type=int, default=2, help="analyses in a row (the first one is cold)")
    parser.add_argument("--wait", type=float, default=0.0, help="seconds between the start-up and the first analysis")
    parser.add_argument("--no-prestart", dest="prestart", action="store_false",
                        help="start the analysis worker on the first analysis (as before `serve` started it)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, TestClient(create_app(data, start_analysis=args.prestart)) as client:
        time.sleep(args.wait)
        body = {"variant": "super16", "moves": MIDDLEGAME, "movetime_ms": args.movetime}
        for i in range(args.repeat):
            t0 = time.perf_counter()
            r = client.post("/api/analysis/engine", json=body)
            wall = time.perf_counter() - t0
            r.raise_for_status()
            got = r.json()
            print(f"{'first' if i == 0 else 'again'}: {wall:.2f} s wall, search {got['time_ms']} ms, depth {got['depth']}, "
                  f"score {got['score']}, line {' '.join(got['line'])}")


if __name__ == "__main__":
    main()
