"""No request or game event blocks the server's event loop for long (issue 18, item 1): rules work
that can take tenths of a second (a Tiling Rider listing in check, roster compilation, loading a
game) runs off it, measured on the real server by a stall monitor's round trips every 50 ms (items 2
and 6 too; item 4's logins are in test_login_load.py)."""
from __future__ import annotations

import random
import threading

from .real_server import STALL_MS, Player, stall_under

# a Tiling Rider turn in check, three moves made: listing its legal moves searches completions of
# the turn for about half a second (found with bench/tiling.py's in-check positions)
SLOW_LISTING = ("2wg1gggkkg1wgw1g1/1fnfw1w1kk1nf1g1f1/1ng1f2N3wfn1f1g/w1fw4wnn4w2/w1g2n11f/N2w1w1fnn4w2w/"
                "f3N1g1F5g1fg/5f3F3N2n1/5N1W3Nn1n1f1/NW7G4F1GF/1NF1g2F2F3GF2/2W5W2WN3GW/G2FF4FWWG3F1/"
                "G3GW6G4N/WW1N2GGKK1N1GG2F/3F1W1GKK1N3WW1 b 11 3 92 | q10p9 d11c10 r14r15")


def test_a_slow_listing_is_computed_off_the_event_loop(processes):
    server = processes()
    player = Player(server, timeout=120)  # the set-up replays three searched moves: seconds

    def attack() -> None:
        r = player.http.post("/api/matches/computer", json={"variant": "tilingrider", "fen": SLOW_LISTING,
                                                             "creator_side": 1, "level": 1})
        assert r.status_code == 200, r.text
        state = player.http.get(f"/api/games/{r.json()['game_id']}").json()
        assert state["status"] == "active" and state["legal"]  # the listing was made

    worst = stall_under(server, attack)
    assert min(worst) < STALL_MS, worst


def test_a_position_text_with_a_huge_empty_run_is_refused_without_a_stall(processes):
    """Item 2: a 64-byte FEN whose rank claims 100,000,000 empty squares (before: 1.5 GB allocated and
    the loop stalled about a second) is refused at once."""
    server = processes()
    player = Player(server)
    fen = "100000000/" + "16/" * 14 + "16 w - - 0 1"

    def attack() -> None:
        for _ in range(3):
            r = player.http.post("/api/matches/computer", json={"variant": "super16", "fen": fen})
            assert r.status_code == 400 and "rank 16" in r.json()["detail"], r.text

    worst = stall_under(server, attack)
    assert min(worst) < STALL_MS, worst


def test_roster_previews_compile_off_the_event_loop(processes):
    """Item 6: previews of distinct maximal rosters (every piece type with 64 slide vectors: seconds
    of compiling each) run in the rules pool while the loop keeps answering."""
    server = processes()
    variant = Player(server).http.get("/api/variants/super16/pieces").json()
    letters = [p["letter"] for p in variant["pieces"]]
    short = [[x, y] for x in range(-4, 5) for y in range(-4, 5) if (x, y) != (0, 0)]
    rosters = iter([{letter: {"mode": "slide", "vectors": random.Random(i).sample(short, 64)} for letter in letters}
                    for i in range(6)])

    def attack() -> None:
        previews = [Player(server, timeout=120) for _ in range(2)]
        threads = [threading.Thread(target=lambda p=p, r=next(rosters): results.append(
            p.http.post("/api/rosters/preview", json={"roster": r, "letter": "N", "square": "h8"}).status_code))
            for p in previews]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    results: list[int] = []
    worst = stall_under(server, attack)
    assert set(results) == {200}, results
    assert min(worst) < STALL_MS, worst


def test_analysis_board_work_runs_off_the_event_loop(processes):
    """Issue 23: an engine analysis (its worker process starting, then a level-8 search) and
    analysis-board positions of long lines run while the loop keeps answering."""
    server = processes()
    results: list[int] = []

    def attack() -> None:
        analyst, mover = Player(server, timeout=120), Player(server, timeout=120)
        engine = threading.Thread(target=lambda: results.append(analyst.http.post(
            "/api/analysis/engine", json={"variant": "vanguard", "movetime_ms": 1500}).status_code))
        engine.start()
        moves: list[str] = []
        for i in range(20):
            state = mover.http.post("/api/analysis/position", json={"variant": "vanguard", "moves": moves}).json()
            _, tails = sorted(state["legal"].items())[i % len(state["legal"])]
            moves.append(tails[0]["move"])
        results.append(200 if len(moves) == 20 else 0)
        engine.join()

    worst = stall_under(server, attack)
    assert set(results) == {200}, results
    assert min(worst) < STALL_MS, worst
