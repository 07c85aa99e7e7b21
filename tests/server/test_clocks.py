"""Clocks (super16 R18) driven by the fake time source: untimed first moves, only the side to move is
charged, increments, loss on time (and R12's draw), the first-move abort, Daily."""
from __future__ import annotations

import pytest

from ..rules.helpers import make_fen
from superchess.server.clock import TIME_CONTROLS, Clock

from .util import START, http_state, move, new_match, recv_state, sync

MIN = 60_000
DAY = 24 * 3600 * 1000


def connect(m):
    c1, c2 = m.p1.websocket_connect(f"/ws/games/{m.id}"), m.p2.websocket_connect(f"/ws/games/{m.id}")
    return c1, c2


def clock_of(ws) -> dict:
    return sync(ws)["state"]["clock"]


def test_untimed_first_moves_then_only_the_side_to_move_is_charged_plus_increment(server, clock):
    m = new_match(server, time_control="blitz-3+2")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        first = recv_state(w1)["state"]["clock"]
        recv_state(w2)
        assert first == {"remaining": [180_000, 180_000], "running": 0, "timed": False, "server_time": START,
                         "daily": False, "deadline": START + MIN, "initial": 180_000, "increment": 2_000}
        clock.advance(50_000)  # Player 1 thinks 50 s over the first move: not charged
        assert clock_of(w1)["remaining"] == [180_000, 180_000]
        c = move(w1, [w2], "h2h4")[1]["state"]["clock"]
        assert c["remaining"] == [180_000, 180_000] and c["running"] == 1 and c["timed"] is False
        assert c["deadline"] == clock.t + MIN and c["server_time"] == clock.t
        clock.advance(45_000)
        c = move(w2, [w1], "h15h13")[1]["state"]["clock"]
        assert c["remaining"] == [180_000, 180_000] and c["running"] == 0 and c["timed"] is True
        assert c["deadline"] == clock.t + 180_000
        clock.advance(7_000)  # now Player 1's clock runs, Player 2's does not
        assert clock_of(w2)["remaining"] == [173_000, 180_000]
        c = move(w1, [w2], "g2g4")[1]["state"]["clock"]
        assert c["remaining"] == [175_000, 180_000] and c["running"] == 1  # 180 - 7 + 2
        assert c["deadline"] == clock.t + 180_000
        clock.advance(11_000)
        assert clock_of(w1)["remaining"] == [175_000, 169_000]
        c = move(w2, [w1], "g15g13")[1]["state"]["clock"]
        assert c["remaining"] == [175_000, 171_000] and c["running"] == 0
        assert c["deadline"] == clock.t + 175_000
    row = server.store.game(m.id)
    assert (row.remaining0, row.remaining1) == (175_000, 171_000)


@pytest.mark.parametrize("tc, first, then", [("blitz-3+2", 60_000, 175_000), ("bullet-1+0", 60_000, 55_000),
                                              ("daily", DAY, DAY - 5_000)])
def test_a_side_plans_its_untimed_first_move_with_its_clock_and_the_first_move_window(tc, first, then):
    c = Clock(TIME_CONTROLS[tc])
    c.start(0, 1_000)
    assert c.thinking_time(0, 1_000) == first  # the smaller of its clock and the window
    assert c.thinking_time(0, 21_000) == first - 20_000  # the window closes as time passes
    c.on_move(21_000)
    c.on_move(22_000)  # both first moves made: timed, the clock itself
    assert c.timed() and c.thinking_time(0, 27_000) == then == c.left(0, 27_000)


def play_first_moves(w1, w2, clock, first="h2h4", second="h15h13"):
    clock.advance(1_000)
    move(w1, [w2], first)
    clock.advance(1_000)
    move(w2, [w1], second)


def test_bullet_loss_on_time_via_the_clock_check(server, clock):
    m = new_match(server, time_control="bullet-1+0")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock)
        clock.advance(1_000)
        move(w1, [w2], "g2g4")  # Player 1: 59 s left; Player 2 to move with 60 s
        clock.advance(MIN - 1)
        server.check_clocks()
        assert clock_of(w2)["remaining"] == [59_000, 1]  # not yet (no broadcast came either)
        clock.advance(1)
        server.check_clocks()
        msgs = [recv_state(w1), recv_state(w2)]
        for msg in msgs:
            assert msg["event"] == {"kind": "end", "termination": "time", "result": "1-0"}
            s = msg["state"]
            assert (s["status"], s["result"], s["termination"]) == ("finished", "1-0", "time")
            assert s["reason"] == "Player 2 lost on time — Player 1 wins"
            assert s["clock"]["remaining"] == [59_000, 0] and s["clock"]["running"] is None
        server.check_clocks()  # nothing more to do
        assert sync(w1)["version"] == msgs[0]["version"]


def test_bullet_loss_on_time_decided_by_the_next_action(server, clock):
    m = new_match(server, time_control="bullet-1+0")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock)
        clock.advance(MIN + 5_000)  # Player 1's flag fell; no timer ran in between
        w1.send_json({"type": "move", "move": "g2g4"})  # too late: the flag decides first
        for ws in (w1, w2):
            s = recv_state(ws)["state"]
            assert (s["status"], s["result"], s["termination"]) == ("finished", "0-1", "time")
            assert s["moves"] == ["h2h4", "h15h13"] and s["reason"] == "Player 1 lost on time — Player 2 wins"
    assert server.store.moves(m.id) == ["h2h4", "h15h13"]


def test_the_opponents_action_also_reveals_the_fallen_flag(server, clock):
    m = new_match(server, time_control="bullet-1+0")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock)
        clock.advance(MIN)
        w2.send_json({"type": "offer_draw"})
        for ws in (w1, w2):
            s = recv_state(ws)["state"]
            assert (s["result"], s["termination"], s["draw_offer"]) == ("0-1", "time", None)


@pytest.mark.parametrize("material", [{"p16": "k"}, {"p16": "k", "a16": "n"}, {"p16": "k", "c16": "b"}])
def test_flag_against_a_side_that_cannot_mate_is_a_draw_r12(server, clock, material):
    fen = make_fen("super16", {"i1": "K", "a1": "R", "h2": "P", **material})
    m = new_match(server, time_control="bullet-1+0", fen=fen)
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock, "a1a2", "p16o16")
        clock.advance(MIN)
        server.check_clocks()
        for ws in (w1, w2):
            s = recv_state(ws)["state"]
            assert (s["status"], s["result"], s["termination"]) == ("finished", "1/2-1/2", "time")
            assert s["reason"] == "Player 1 ran out of time, but the opponent cannot mate — draw"
    record = m.p1.get(f"/api/games/{m.id}/record").text
    assert '[Result "1/2-1/2"]' in record and '[Termination "time"]' in record


def test_flag_against_a_side_with_a_rook_loses(server, clock):
    fen = make_fen("super16", {"i1": "K", "a1": "R", "p16": "k", "a16": "r"})
    m = new_match(server, time_control="bullet-1+0", fen=fen)
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock, "a1a2", "p16o16")
        clock.advance(MIN)
        server.check_clocks()
        assert recv_state(w1)["state"]["result"] == "0-1"


def test_the_first_mover_not_moving_within_60_s_aborts(server, clock):
    m = new_match(server, time_control="classical-30+30")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        clock.advance(MIN - 1)
        server.check_clocks()
        assert clock_of(w1)["deadline"] == START + MIN
        clock.advance(1)
        server.check_clocks()
        for ws in (w1, w2):
            msg = recv_state(ws)
            assert msg["event"] == {"kind": "end", "termination": "aborted", "result": "*"}
            s = msg["state"]
            assert (s["status"], s["result"], s["termination"], s["reason"]) == ("aborted", "*", "aborted",
                                                                                 "Game aborted")
            assert s["clock"]["remaining"] == [1_800_000, 1_800_000]  # nobody was charged
    assert ok_list(m.p1)["finished"][0]["status"] == "aborted"


def ok_list(b):
    return b.get("/api/games").json()


def test_a_late_first_move_is_refused_and_aborts(server, clock):
    m = new_match(server)
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        clock.advance(MIN + 1)
        w1.send_json({"type": "move", "move": "h2h4"})
        s = recv_state(w1)["state"]
        assert s["status"] == "aborted" and s["moves"] == []


def test_the_second_sides_first_move_has_the_same_window(server, clock):
    m = new_match(server)
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        clock.advance(30_000)
        move(w1, [w2], "h2h4")
        clock.advance(MIN)
        server.check_clocks()
        s = recv_state(w1)["state"]
        assert s["status"] == "aborted" and s["moves"] == ["h2h4"]


def test_daily_24_hours_per_move_and_the_deadline_in_the_state(server, clock):
    m = new_match(server, time_control="daily")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        c = recv_state(w1)["state"]["clock"]
        recv_state(w2)
        assert c["daily"] is True and c["remaining"] == [DAY, DAY] and c["deadline"] == START + DAY
        clock.advance(DAY - 1)  # the first move may take up to a day, and is not charged
        server.check_clocks()
        c = move(w1, [w2], "h2h4")[1]["state"]["clock"]
        assert c["deadline"] == clock.t + DAY and c["running"] == 1
        clock.advance(5 * 3600 * 1000)
        move(w2, [w1], "h15h13")
        clock.advance(20 * 3600 * 1000)  # Player 1 uses 20 of their 24 hours
        assert clock_of(w2)["remaining"][0] == 4 * 3600 * 1000
        c = move(w1, [w2], "g2g4")[1]["state"]["clock"]
        assert c["running"] == 1 and c["remaining"][1] == DAY and c["deadline"] == clock.t + DAY
        clock.advance(23 * 3600 * 1000)  # Player 2 answers within the day: a fresh day for Player 1
        c = move(w2, [w1], "g15g13")[1]["state"]["clock"]
        assert c["remaining"][0] == DAY and c["deadline"] == clock.t + DAY
        clock.advance(DAY)
        server.check_clocks()
        s = recv_state(w1)["state"]
        assert (s["status"], s["result"], s["termination"]) == ("finished", "0-1", "time")
    assert http_state(m.p2, m.id)["clock"]["deadline"] is None


def test_a_flag_fall_stores_zero_remaining_time(server, clock):
    m = new_match(server, time_control="bullet-1+0")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock)
        clock.advance(MIN)
        server.check_clocks()
        assert recv_state(w1)["state"]["termination"] == "time"
    row = server.store.game(m.id)
    assert (row.remaining0, row.remaining1) == (0, MIN)


def test_the_event_loop_timer_flags_by_itself(server, clock):
    """No check_clocks here: the hub's own timer (armed after each change) applies the time-out."""
    import time
    m = new_match(server, time_control="bullet-1+0")
    c1, c2 = connect(m)
    with c1 as w1, c2 as w2:
        recv_state(w1), recv_state(w2)
        play_first_moves(w1, w2, clock)
        clock.advance(MIN - 30)  # 30 ms (of real time, for the timer) before Player 1's flag falls
        w2.send_json({"type": "offer_draw"})  # any change re-arms the timer: due in 0.03 s
        recv_state(w1), recv_state(w2)
        clock.advance(30)
        time.sleep(0.1)
        for ws in (w1, w2):
            msg = recv_state(ws)
            assert msg["event"]["kind"] == "end" and msg["state"]["termination"] == "time"
            assert msg["state"]["result"] == "0-1"
