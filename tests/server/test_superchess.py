"""Superchess on the server: set-ups chosen at match creation (random, seed, square by square), the
holdings in the state, promotion only to a held piece (superchess R1-R7)."""
from __future__ import annotations

from superchess.rules import Board

from .util import move, new_match, ok, recv_state

E1 = {"b1": "V", "d1": "A", "f1": "S", "g1": "E"}


def test_the_new_shuffle_preview_is_random_reproducible_or_explicit(server):
    b = server.browser()
    explicit = ok(b.post("/api/setups/preview", json={"squares": E1}))
    assert explicit["fen"].startswith("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[")
    seeded = [ok(b.post("/api/setups/preview", json={"seed": "club night"}))["fen"] for _ in range(2)]
    assert seeded[0] == seeded[1]
    randoms = {ok(b.post("/api/setups/preview", json={}))["fen"] for _ in range(12)}
    assert len(randoms) > 1
    bad = b.post("/api/setups/preview", json={"squares": {**E1, "e1": "V"}})
    assert bad.status_code == 400 and "e1" in bad.json()["detail"]
    assert b.post("/api/setups/preview", json={"variant": "chess"}).status_code == 400


def test_a_superchess_match_starts_from_the_chosen_setup_with_holdings(server):
    m = new_match(server, variant="superchess", setup_squares=E1, time_control="rapid-10+5")
    s = m.state(m.p1)
    assert s["holdings"] == [{"Q": 1, "B": 1, "N": 2}, {"Q": 1, "B": 1, "N": 2}]
    assert s["fen"] == Board("superchess", s["fen"]).fen() and s["pieces"]["b1"] == "V"
    seeded = [new_match(server, variant="superchess", setup_seed="42").state(m.p1) for _ in range(2)]
    assert seeded[0]["fen"] == seeded[1]["fen"]
    assert new_match(server).state(m.p1)["holdings"] is None  # super16 has none


def test_captures_feed_the_owners_holdings_and_promotion_offers_only_held_pieces(server):
    fen = "4k3/1P6/8/3E4/8/5b2/8/4K3[] b - - 0 1"
    m = new_match(server, variant="superchess", fen=fen)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        s = move(w2, [w1], "f3d5")[1]["state"]
        assert s["holdings"] == [{"E": 1}, {}] and s["captured"][0] == ["E"]
        assert s["legal"]["b7"] == ["b8e"]
        s = move(w1, [w2], "b7b8e")[0]["state"]
        assert s["holdings"] == [{}, {}] and s["pieces"]["b8"] == "E"


# -- the prelude (rules 2.3) -------------------------------------------------------------------------
def test_a_prelude_game_sets_up_by_the_players_choices_then_plays(server):
    from .util import act, recv_error
    m = new_match(server, variant="superchess", mode="prelude")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s = recv_state(w1)["state"]
        recv_state(w2)
        assert s["status"] == "setup" and s["prelude"]["to_move"] == 0 and s["prelude"]["expects"] == "king wing"
        assert s["prelude"]["free"] == ["f1", "g1", "h1"] and s["holdings"] == [{}, {}]
        w1.send_json({"type": "move", "move": "e2e4"})
        assert "choosing the set-up" in recv_error(w1)
        w2.send_json({"type": "prelude_pick", "square": "g1", "piece": "A"})
        assert "other player" in recv_error(w2)
        msgs = act(w1, [w2], {"type": "prelude_pick", "square": "g1", "piece": "A"})
        assert msgs[1]["event"] == {"kind": "prelude", "side": 0, "square": "g1", "piece": "A"}
        seen = msgs[1]["state"]
        assert seen["pieces"]["g1"] == "A" and seen["pieces"]["g8"] == "a" and seen["holdings"] == [{"N": 1}, {"N": 1}]
        act(w2, [w1], {"type": "prelude_pick", "square": "b1", "piece": "E"})
        act(w1, [w2], {"type": "prelude_pick", "square": "h1", "piece": "S"})
        w2.send_json({"type": "prelude_pick", "square": "b1", "piece": "V"})
        assert "a1, c1, d1" in recv_error(w2)
        act(w2, [w1], {"type": "prelude_pick", "square": "d1", "piece": "V"})
        end = act(w2, [w1], {"type": "prelude_swap", "squares": ["g1", "b1"]})[1]["state"]
        assert end["status"] == "active" and end["prelude"]["expects"] == "done"
        assert (end["pieces"]["g1"], end["pieces"]["b1"], end["pieces"]["b8"]) == ("E", "A", "a")
        assert end["fen"].split()[2] == "Qq"  # h1 was substituted: no king-side castling (R9)
        assert end["legal"] and end["clock"]["running"] == 0
        move(w1, [w2], "e2e4")
    assert server.store.game(m.id).start_fen == end["fen"]


def test_a_prelude_left_unfinished_is_completed_at_random_keeping_the_choices(server, clock):
    m = new_match(server, variant="superchess", mode="prelude")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        s = recv_state(w1)["state"]
        from .util import act
        act(w1, [], {"type": "prelude_pick", "square": "f1", "piece": "V"})
        clock.t = s["setup_deadline"]
        server.check_clocks()
        msg = recv_state(w1)
        assert msg["event"] == {"kind": "start"} and msg["state"]["status"] == "active"
        assert msg["state"]["pieces"]["f1"] == "V"
        assert sorted(p for sq, p in msg["state"]["pieces"].items() if sq[1] == "1" and p in "AESV") == list("AESV")


def test_prelude_is_refused_where_it_does_not_apply(server):
    b = server.browser()
    for body, message in (({"variant": "super16", "mode": "prelude"}, "no prelude"),
                          ({"variant": "superchess", "mode": "prelude", "setup_seed": "3"}, "choose the set-up"),
                          ({"variant": "superchess", "mode": "private"}, "cannot be reprogrammed")):
        r = b.post("/api/matches", json=body)
        assert r.status_code == 400 and message in r.json()["detail"], r.text


def test_the_computer_makes_its_prelude_choices(server):
    from concurrent.futures import ThreadPoolExecutor

    from superchess.server.ai import AIPlayers

    from .util import wait_for
    server.hub.ai = AIPlayers(server.hub, lambda: ThreadPoolExecutor(1))
    human = server.browser()
    game_id = ok(human.post("/api/matches/computer", json={"variant": "superchess", "mode": "prelude",
                                                           "level": 1, "creator_side": 1}))["game_id"]
    s = wait_for(server, game_id, human, lambda st: st["prelude"]["to_move"] == 1)
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        from .util import act
        act(ws, [], {"type": "prelude_pick", "square": "a1", "piece": s["prelude"]["remaining"][0]})
        s = wait_for(server, game_id, human, lambda st: st["prelude"]["to_move"] == 1)
        act(ws, [], {"type": "prelude_pick", "square": s["prelude"]["free"][0], "piece": s["prelude"]["remaining"][0]})
        act(ws, [], {"type": "prelude_swap", "squares": None})
    s = wait_for(server, game_id, human, lambda st: len(st["moves"]) == 1)  # then it plays the first move
    assert s["status"] == "active"
    server.hub.ai.close()
