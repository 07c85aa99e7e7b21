"""The computer's first move after a server start (issue 21): `superchess serve` in a subprocess
(tests/server/real_server.py's helper) warms the computer's worker during its start-up; as soon as
it answers, one computer game per variant is created with the computer moving first (level 1,
so the time is the way to the worker and back, not thinking), and the time from the request to
the stored move is reported. Also reported: how long the start-up took (until the first answer).

    .venv/bin/python bench/first_move.py
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root, for tests.*

from superchess.rules import VARIANTS as REGISTERED, spec_of  # noqa: E402
from tests.server.real_server import Player, Process  # noqa: E402

VARIANTS = tuple(name for name in REGISTERED if spec_of(name).engine == "core")  # the native search's


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        with open(Path(tmp) / "server.log", "ab") as log:
            server = Process(Path(tmp) / "data", log)
        print(f"start-up (until the server first answered): {time.monotonic() - t0:.2f} s")
        try:
            human = Player(server, timeout=30)
            for variant in VARIANTS:
                t = time.monotonic()
                gid = human.http.post("/api/matches/computer",
                                      json={"variant": variant, "level": 1, "creator_side": 1}).json()["game_id"]
                while not human.state(gid)["moves"]:
                    time.sleep(0.005)
                print(f"{variant:<11} first move {1000 * (time.monotonic() - t):6.0f} ms", flush=True)
            human.http.close()
        finally:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
