"""Rematch (issue 22): offered, accepted or declined over the game's websocket once the game is over;
the new game has the same settings with the sides swapped and is saved with the event that made
it; the computer accepts at once. Also the home page's "your games" (your turn first, time left)
and readable guest names."""
from __future__ import annotations

import re

from .util import act, http_state, new_match, ok, recv_error, recv_state, register, sync, wait_for


def finish(m) -> None:
    with m.p2.websocket_connect(f"/ws/games/{m.id}") as ws:
        recv_state(ws)
        ws.send_json({"type": "resign"})
        assert recv_state(ws)["state"]["status"] == "finished"


def test_a_rematch_offered_and_accepted_starts_a_game_with_the_sides_swapped(server):
    m = new_match(server, variant="superchess", time_control="rapid-10+5", setup_seed="s1", creator_side=1)
    old = http_state(m.p1, m.id)
    finish(m)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        assert recv_state(w1)["state"]["can_rematch"] and recv_state(w2)["state"]["can_rematch"]
        offered = act(w2, [w1], {"type": "offer_rematch"})
        assert [x["event"] for x in offered] == [{"kind": "rematch_offer", "side": 1}] * 2
        assert offered[1]["state"]["rematch_offer"] == 1
        w2.send_json({"type": "offer_rematch"})
        assert recv_error(w2) == "you have already offered a rematch"
        accepted = act(w1, [w2], {"type": "accept_rematch"})
        new_id = accepted[0]["event"]["game_id"]
        assert [x["event"] for x in accepted] == [{"kind": "rematch", "game_id": new_id}] * 2
        assert accepted[0]["state"]["rematch"] == new_id and accepted[0]["state"]["can_rematch"] is False
        w1.send_json({"type": "offer_rematch"})
        assert recv_error(w1) == "the rematch has started already"
    assert server.store.game(new_id).status == "active"  # saved with the event that announced it
    new = http_state(m.p1, new_id)
    assert new["you"] == 1 and http_state(m.p2, new_id)["you"] == 0  # the sides swapped
    assert new["players"] == [{"name": old["players"][1]["name"], "side": 0},
                              {"name": old["players"][0]["name"], "side": 1}]
    assert (new["variant"], new["time_control"], new["mode"], new["rated"], new["fen"]) == \
        (old["variant"], old["time_control"], old["mode"], old["rated"], old["fen"])
    assert server.store.game(new_id).creator_id == ok(m.p2.get("/api/me"))["id"]  # who offered it


def test_a_declined_rematch_and_the_refusals(server):
    m = new_match(server)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        w1.send_json({"type": "offer_rematch"})
        assert recv_error(w1) == "a rematch can be offered once the game is over"
    finish(m)
    watcher = server.browser()
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2, \
            watcher.websocket_connect(f"/ws/games/{m.id}") as w3:
        for w in (w1, w2):
            recv_state(w)
        assert recv_state(w3)["state"]["can_rematch"] is False
        for ws, action, reason in ((w1, "accept_rematch", "there is no rematch offer to accept"),
                                   (w1, "decline_rematch", "there is no rematch offer to decline"),
                                   (w3, "offer_rematch", "only the players of this game can do that")):
            ws.send_json({"type": action})
            assert recv_error(ws) == reason
        version = sync(w1)["version"]
        act(w1, [w2, w3], {"type": "offer_rematch"})
        declined = act(w2, [w1, w3], {"type": "decline_rematch"})
        assert declined[1]["event"] == {"kind": "rematch_declined", "side": 1}
        assert declined[1]["state"]["rematch_offer"] is None and declined[1]["version"] == version + 2
        assert declined[1]["state"]["can_rematch"] is True  # it may be offered again


def test_an_aborted_game_can_be_played_again_and_a_waiting_one_cannot(server):
    m = new_match(server, accept=False)
    with m.creator.websocket_connect(f"/ws/games/{m.id}") as w:
        recv_state(w)
        w.send_json({"type": "offer_rematch"})
        assert recv_error(w) == "a rematch can be offered once the game is over"
    m = new_match(server)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        act(w1, [w2], {"type": "abort"})
        act(w1, [w2], {"type": "offer_rematch"})
        new_id = act(w2, [w1], {"type": "offer_rematch"})[0]["event"]["game_id"]  # crossed offers: accepted
    assert http_state(m.p2, new_id)["you"] == 0


def test_the_rematch_survives_a_restart(server, restart):
    m = new_match(server)
    finish(m)
    cookies = dict(m.p1.cookies)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        act(w1, [w2], {"type": "offer_rematch"})
        new_id = act(w2, [w1], {"type": "accept_rematch"})[0]["event"]["game_id"]
    server = restart(server)
    p1 = server.browser(cookies=cookies)
    assert http_state(p1, m.id)["rematch"] == new_id
    state = http_state(p1, new_id)
    assert state["status"] == "active" and state["you"] == 1


def test_the_computer_accepts_a_rematch_at_once(server, threads):
    human = server.browser()
    game = ok(human.post("/api/matches/computer", json={"variant": "chess", "level": 1, "creator_side": 1}))["game_id"]
    wait_for(server, game, human, lambda s: len(s["moves"]) >= 1)
    with human.websocket_connect(f"/ws/games/{game}") as ws:
        recv_state(ws)
        ws.send_json({"type": "resign"})
        recv_state(ws)
        ws.send_json({"type": "offer_rematch"})
        assert recv_state(ws)["event"] == {"kind": "rematch_offer", "side": 1}
        new_id = recv_state(ws)["event"]["game_id"]
    state = http_state(human, new_id)
    assert state["you"] == 0 and state["players"][1]["name"] == "Computer level 1" and state["status"] == "active"
    assert state["turn"] == 0 and state["legal"]  # the human moves first now


def test_your_games_lists_your_turn_first_with_the_time_you_have_left(server, clock):
    me = server.browser()
    register(me, "alice")
    games = []
    for side, tc in ((0, "daily"), (1, "blitz-3+2"), (0, "rapid-10+5")):
        other = server.browser()
        created = ok(me.post("/api/matches", json={"variant": "chess", "time_control": tc, "creator_side": side}))
        ok(other.post(f"/api/invitations/{created['invite_url'].rsplit('/', 1)[1]}/accept"))
        games.append(created["game_id"])
    clock.advance(5000)
    ongoing = ok(me.get("/api/games"))["ongoing"]
    assert [g["id"] for g in ongoing] == [games[2], games[0], games[1]]  # 55 s of a first-move window first
    assert [g["your_turn"] for g in ongoing] == [True, True, False]
    assert [g["time_left"] for g in ongoing] == [55_000, 86_400_000 - 5000, 180_000]


def test_guest_names_are_readable(server):
    names = set()
    for _ in range(20):
        b = server.browser()
        ok(b.put("/api/me/colour", json={"colour": "#123456"}))
        names.add(ok(b.get("/api/me"))["name"])
    assert len(names) == 20 and all(re.fullmatch(r"Guest-[1-9]\d{3,}", n) for n in names)
