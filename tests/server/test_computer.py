"""Playing the computer: its moves take a human's path (validation, clock, persistence), it thinks
outside the event loop, a restart resumes its games, and in Private mode it is told no more than a
human opponent would know."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from superchess.engine import choose_move
from superchess.rules import Board, Roster
from superchess.server import worker
from superchess.server.ai import AIPlayers, default_executor, ready

from .util import Server, act, computer_game, legal_moves, ok, recv_error, recv_state, wait_for

HIDDEN = {"N": {"mode": "jump", "vectors": [[0, 3], [11, 13]]}}


def test_the_computer_answers_every_move_with_a_legal_one_through_the_server(server, threads):
    human, game_id = computer_game(server, level=1, time_control="rapid-10+5")
    s = ok(human.get(f"/api/games/{game_id}"))
    assert s["players"][1]["name"] == "Computer level 1" and s["you"] == 0 and s["status"] == "active"
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        for i in range(3):
            text = sorted(s["legal"])[i]  # any legal move of ours
            act(ws, [], {"type": "move", "move": legal_moves(s)[text][0]})
            s = wait_for(server, game_id, human, lambda st, n=2 * i + 2: len(st["moves"]) == n)
    replay = Board("super16")
    for m in s["moves"]:
        replay.push_text(m)  # every stored move legal by the rules
    assert server.store.moves(game_id) == s["moves"]
    assert s["clock"]["timed"]  # the computer's moves run its clock like anyone's


def test_the_computer_moves_first_when_it_is_player_1(server, threads):
    human, game_id = computer_game(server, level=2, creator_side=1, variant="chess")
    s = wait_for(server, game_id, human, lambda st: len(st["moves"]) == 1)
    assert s["you"] == 1 and s["turn"] == 1 and s["legal"]


def test_the_computer_plans_its_untimed_first_move_with_its_clock_and_the_first_move_window(server, clock):
    """Its first move is not charged (R18), but it is planned as a timed one: with the time its clock
    will have, and never more than what is left of the first-move window (with no time at all, level
    8 would think for up to a minute and could let the window close)."""
    told = []

    def think(variant, start_fen, moves, rosters, level, time_left_ms, increment_ms, root_moves=None, seed=None, stop=None):
        told.append((list(moves), time_left_ms, increment_ms))
        return "e7e5" if moves == ["e2e4"] else "e2e4"

    server.hub.ai = AIPlayers(server.hub, lambda: ThreadPoolExecutor(1), think=think)
    human, game_id = computer_game(server, level=8, variant="chess", time_control="blitz-3+2", creator_side=1)
    wait_for(server, game_id, human, lambda st: len(st["moves"]) == 1)
    assert told == [([], 60_000, 2_000)]  # the window (60 s) is shorter than its clock (3 min)
    clock.advance(5_000)
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        act(ws, [], {"type": "move", "move": "e7e5"})
        clock.advance(1_000)
        act(ws, [], {"type": "resign"})
    human, game_id = computer_game(server, level=8, variant="chess", time_control="bullet-1+0")
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        clock.advance(20_000)
        act(ws, [], {"type": "move", "move": "e2e4"})
        wait_for(server, game_id, human, lambda st: len(st["moves"]) == 2)
        assert told[-1] == (["e2e4"], 60_000, 0)  # its clock (1 min), the window's 60 s not yet started
        act(ws, [], {"type": "resign"})
    server.hub.ai.close()


def test_bad_computer_matches_are_refused(server):
    b = server.browser()
    for body, message in (({"level": 9}, "level"), ({"level": 0}, "level"), ({"invite": "bob"}, "invites nobody"),
                          ({"variant": "xiangqi"}, "unknown variant")):
        r = b.post("/api/matches/computer", json=body)
        assert r.status_code == 400 and message in r.json()["detail"], r.text


def test_in_private_mode_the_computer_is_told_its_own_roster_and_the_servers_highlights_only(server):
    calls = []

    def think(variant, start_fen, moves, rosters, level, time_left_ms, increment_ms, root_moves=None, seed=None, stop=None):
        calls.append({"rosters": rosters, "root_moves": root_moves, "moves": list(moves)})
        return sorted(root_moves)[0]

    server.hub.ai = AIPlayers(server.hub, lambda: ThreadPoolExecutor(1), think=think)
    human, game_id = computer_game(server, level=4, mode="private")
    s = wait_for(server, game_id, human, lambda st: st["roster_submitted"][1])
    assert s["status"] == "setup" and s["rosters"][1] is None  # its roster is hidden from the human too
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        act(ws, [], {"type": "submit_roster", "roster": HIDDEN})
        act(ws, [], {"type": "move", "move": "b1b4"})  # the hidden program
        s = wait_for(server, game_id, human, lambda st: len(st["moves"]) == 2)
        assert calls and calls[-1]["moves"] == ["b1b4"]
        # what it was given: both rosters as the default (its own is the default), the move list,
        # and as root moves exactly what the server would highlight for Player 2
        truth = Board("super16", None, (Roster.from_data(HIDDEN), Roster()))
        truth.push_text("b1b4")
        assert calls[-1]["rosters"] == ({}, {})
        assert sorted(calls[-1]["root_moves"]) == sorted(m.text for m in truth.legal_moves)
        act(ws, [], {"type": "resign"})
    server.hub.ai.close()


def test_a_restart_resumes_the_computers_game_in_its_process_pool(server, restart):
    human, game_id = computer_game(server, level=1, time_control="rapid-10+5", creator_side=1)
    wait_for(server, game_id, human, lambda st: len(st["moves"]) == 1)
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        s = recv_state(ws)["state"]
        ws.send_json({"type": "move", "move": "a1a2"})
        assert recv_error(ws)  # not ours to play that, the computer's pieces are Player 1's
        origin = sorted(s["legal"])[0]
        act(ws, [], {"type": "move", "move": legal_moves(s)[origin][0]})
    server2 = restart(server)
    again = server2.browser(cookies=dict(human.cookies))
    s = wait_for(server2, game_id, again, lambda st: len(st["moves"]) == 3)
    assert s["status"] == "active" and server2.store.moves(game_id) == s["moves"]


def test_a_server_started_with_its_computer_has_a_warm_worker_before_it_serves(data_dir, clock):
    """`serve` starts the computer's worker during the start-up and waits for its initializer (the
    engine's warm-up), so the first move after a start costs no compilation (bench/first_move.py
    measures it on the real server)."""
    events = []

    def pool():
        events.append("pool made")
        return ThreadPoolExecutor(1, initializer=events.append, initargs=("warmed up",))

    server = Server(data_dir, clock, ai_executor=pool, start_computer=True)
    try:
        assert events == ["pool made", "warmed up"]  # before the lifespan's start-up ended
        human, game_id = computer_game(server, level=1, creator_side=1, variant="chess")
        wait_for(server, game_id, human, lambda st: len(st["moves"]) == 1)
        assert events == ["pool made", "warmed up"]  # the same worker thinks
    finally:
        server.close()


def test_the_computer_grants_a_takeback_at_once_and_drops_the_move_it_was_thinking_of(server):
    """Issue 23: as on lichess, a casual game's computer accepts a takeback at once: asked on the
    human's turn it takes back the human's move and its reply; asked while it thinks, the human's
    move, and the move it was thinking of is never played (its position was taken back)."""
    release, thinking = threading.Event(), threading.Event()
    calls = []

    def think(variant, start_fen, moves, rosters, level, time_left_ms, increment_ms, root_moves=None, seed=None, stop=None):
        calls.append(list(moves))
        if len(calls) == 2:  # the second search waits until the test lets it answer
            thinking.set()
            release.wait(10)
        return "d7d5" if moves == ["d2d4"] else "e7e5"

    server.hub.ai = AIPlayers(server.hub, lambda: ThreadPoolExecutor(1), think=think)
    human, game_id = computer_game(server, level=3, variant="chess")
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        act(ws, [], {"type": "move", "move": "e2e4"})
        wait_for(server, game_id, human, lambda st: st["moves"] == ["e2e4", "e7e5"])
        act(ws, [], {"type": "offer_takeback"})  # on the human's turn: its move and the reply go
        s = wait_for(server, game_id, human, lambda st: st["moves"] == [])
        assert s["turn"] == 0 and s["takeback_offer"] is None and server.store.moves(game_id) == []
        act(ws, [], {"type": "move", "move": "d2d4"})
        assert thinking.wait(10)
        act(ws, [], {"type": "offer_takeback"})  # while it thinks: the human's move goes
        s = wait_for(server, game_id, human, lambda st: st["moves"] == [])
        release.set()  # the search of the position taken back answers d7d5: dropped
        act(ws, [], {"type": "move", "move": "c2c4"})
        s = wait_for(server, game_id, human, lambda st: len(st["moves"]) >= 2)
        assert s["moves"] == ["c2c4", "e7e5"] and s["turn"] == 0
    server.hub.ai.close()


def test_a_search_the_server_stops_in_the_computer_s_worker_process_answers_at_once():
    """A search for a position the game left (a takeback, a resignation) is stopped in the worker
    process, so the computer's next search does not wait for it: level 8 with 30 minutes on its
    clock would think for most of a minute."""
    pool = default_executor()
    try:
        assert pool.submit(ready).result(120)  # warmed up
        search_id = worker.new_search_id()
        answer = pool.submit(worker.think, search_id, choose_move, "chess", None, ["e2e4"], None, 8, 1_800_000, 30_000)
        time.sleep(1)
        assert not answer.done()
        started = time.monotonic()
        worker.stop_search(search_id)
        move = answer.result(60)
        assert time.monotonic() - started < 5
        board = Board("chess")
        board.push_text("e2e4")
        assert move in {m.text for m in board.legal_moves}
    finally:
        pool.shutdown(cancel_futures=True)
