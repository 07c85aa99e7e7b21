"""The game page's extras over the websocket (docs/protocol.md, "The game page's extras"): takebacks in
casual games (asked, accepted, declined, whole turns in multi-move variants; refused in rated games), the chat
(players' and watchers' rooms, cleaned, length- and rate-limited) and the spectator count."""
from __future__ import annotations

import pytest

from superchess.rules import Board

from .util import act, http_state, move, new_match, rated_game, recv, recv_error, recv_state, sync


def stored_moves(server, game_id):
    return server.store.moves(game_id)


def test_a_takeback_of_the_last_move_and_of_a_move_already_answered(server):
    m = new_match(server, variant="chess")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "e2e4")
        asked = act(w1, [w2], {"type": "offer_takeback"})
        assert [x["event"] for x in asked] == [{"kind": "takeback_offer", "side": 0}] * 2
        assert asked[1]["state"]["takeback_offer"] == 0
        w1.send_json({"type": "offer_takeback"})
        assert recv_error(w1) == "you have already asked to take your move back"
        done = act(w2, [w1], {"type": "accept_takeback"})
        assert done[0]["event"] == {"kind": "takeback", "side": 1, "moves": ["e2e4"]}
        st = done[1]["state"]
        assert st["moves"] == [] and st["turn"] == 0 and st["takeback_offer"] is None and "e2" in st["legal"]
        assert stored_moves(server, m.id) == []
        # answered already: the takeback removes the reply too, and Player 1 is to move again
        move(w1, [w2], "d2d4")
        move(w2, [w1], "d7d5")
        act(w1, [w2], {"type": "offer_takeback"})
        done = act(w2, [w1], {"type": "accept_takeback"})
        assert done[0]["event"]["moves"] == ["d2d4", "d7d5"] and done[1]["state"]["turn"] == 0
        assert stored_moves(server, m.id) == []
        move(w1, [w2], "c2c4")
    assert stored_moves(server, m.id) == ["c2c4"]


def test_a_takeback_declined_or_answered_by_a_move(server):
    m = new_match(server, variant="chess")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "e2e4")
        act(w1, [w2], {"type": "offer_takeback"})
        declined = act(w2, [w1], {"type": "decline_takeback"})
        assert declined[1]["event"] == {"kind": "takeback_declined", "side": 1}
        assert declined[1]["state"]["takeback_offer"] is None
        act(w1, [w2], {"type": "offer_takeback"})
        assert move(w2, [w1], "e7e5")[0]["state"]["takeback_offer"] is None  # moving refuses it
        assert http_state(m.p1, m.id)["moves"] == ["e2e4", "e7e5"]


def test_takebacks_refused_clearly_and_nothing_changes(server):
    m = new_match(server, variant="chess")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        before = recv_state(w1)["state"]
        recv_state(w2)
        for ws, action, reason in ((w1, "offer_takeback", "you have no move to take back"),
                                   (w2, "accept_takeback", "there is no takeback request to accept"),
                                   (w2, "decline_takeback", "there is no takeback request to decline")):
            ws.send_json({"type": action})
            assert recv_error(ws) == reason
        assert sync(w1)["state"]["version"] == before["version"]
    game, p1, _ = rated_game(server)
    with p1.websocket_connect(f"/ws/games/{game}") as w1:
        recv_state(w1)
        move(w1, [], "e2e4")
        w1.send_json({"type": "offer_takeback"})
        assert recv_error(w1) == "moves cannot be taken back in a rated game"
        assert sync(w1)["state"]["takeback_offer"] is None
    g = new_match(server, variant="intergrid")
    with g.p1.websocket_connect(f"/ws/games/{g.id}") as w1, g.p2.websocket_connect(f"/ws/games/{g.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "e2e3")
        move(w1, [w2], "end")
        move(w2, [w1], "e7e6")  # Player 2 has no finished turn yet
        w2.send_json({"type": "offer_takeback"})
        assert recv_error(w2) == "you have no move to take back"


def test_an_intergrid_takeback_removes_whole_turns(server):
    """Issue 23: in a multi-move variant a takeback removes the asker's last turn (square and point
    move), the opponent's reply and the asker's unfinished turn; the clock counts turns again."""
    m = new_match(server, variant="intergrid", time_control="blitz-3+2")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "e2e3")
        move(w1, [w2], "A2A3")  # the point move ends the turn
        act(w1, [w2], {"type": "offer_takeback"})  # not answered yet: the asker's turn alone goes
        done = act(w2, [w1], {"type": "accept_takeback"})
        assert done[0]["event"] == {"kind": "takeback", "side": 1, "moves": ["e2e3", "A2A3"]}
        st = done[1]["state"]
        assert st["moves"] == [] and st["turn"] == 0 and st["turn_moves"] == 0 and "e2" in st["legal"]
        for w, text in ((w1, "e2e3"), (w1, "A2A3"), (w2, "e7e6"), (w2, "end"), (w1, "d2d3")):
            move(w, [w1 if w is w2 else w2], text)
        act(w1, [w2], {"type": "offer_takeback"})  # mid-turn: that turn, the reply and the turn before go
        done = act(w2, [w1], {"type": "accept_takeback"})
        assert done[0]["event"]["moves"] == ["e2e3", "A2A3", "e7e6", "end"]
        st = done[1]["state"]
        assert (st["moves"], st["turn"], st["turn_moves"], st["can_abort"]) == ([], 0, 0, True)
        assert stored_moves(server, m.id) == []
        for w, text in ((w1, "d2d3"), (w1, "end"), (w2, "e7e6"), (w2, "end")):
            move(w, [w1 if w is w2 else w2], text)
        act(w2, [w1], {"type": "offer_takeback"})  # Player 2's turn, answered by nothing yet
        done = act(w1, [w2], {"type": "accept_takeback"})
        assert done[0]["event"]["moves"] == ["e7e6", "end"] and done[1]["state"]["turn"] == 1
    assert stored_moves(server, m.id) == ["d2d3", "end"]


def test_a_tilingrider_takeback_removes_whole_turns_and_keeps_a_draft_private(server):
    """Issue 23 with tiling-rider R12: the turns taken back are listed, but the moves of the
    accepter's unfinished turn (its draft, which the asker never saw) are dropped unlisted."""
    fen = Board("tilingrider").fen().replace(" w 4! ", " w 2 ")  # turns of up to 2 moves (R11 aside)
    m = new_match(server, variant="tilingrider", fen=fen)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        assert "event" not in act(w1, [w2], {"type": "move", "move": "a4a5"})[1]  # a draft: its mover's alone
        act(w1, [w2], {"type": "move", "move": "c4c5"})  # the allowance used: the turn ends
        assert "event" not in act(w2, [w1], {"type": "move", "move": "a13a12"})[1]  # Player 2's draft
        act(w1, [w2], {"type": "offer_takeback"})
        done = act(w2, [w1], {"type": "accept_takeback"})
        assert done[1]["event"] == {"kind": "takeback", "side": 1, "moves": ["a4a5", "c4c5"]}
        for st in (done[0]["state"], done[1]["state"]):
            assert (st["moves"], st["turn"], st["turn_moves"]) == ([], 0, 0)
    assert stored_moves(server, m.id) == []


@pytest.mark.postgresql
def test_a_takeback_request_and_the_chat_outlive_a_restart(server, restart):
    m = new_match(server, variant="chess")
    watcher = server.browser()
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2, \
            watcher.websocket_connect(f"/ws/games/{m.id}") as w3:
        for ws in (w1, w2, w3):
            recv_state(ws)
        move(w1, [w2, w3], "e2e4")
        act(w1, [w2, w3], {"type": "offer_takeback"})
        chat(w1, "oops")
        assert heard(w2)[1][0][2] == "oops"
        chat(w3, "a blunder?")
        assert heard(w3)[1][0][2] == "oops" and heard(w3)[1][0][2] == "a blunder?"
    cookies = [dict(b.cookies) for b in (m.p1, m.p2, watcher)]
    server = restart(server)
    p1, p2, watcher = (server.browser(cookies=c) for c in cookies)
    assert http_state(p2, m.id)["takeback_offer"] == 0  # the request is stored with the game
    with p1.websocket_connect(f"/ws/games/{m.id}") as w1, p2.websocket_connect(f"/ws/games/{m.id}") as w2, \
            watcher.websocket_connect(f"/ws/games/{m.id}") as w3:
        recv_state(w1), recv_state(w2), recv_state(w3)
        assert heard(w2)[1] == [(http_state(p2, m.id)["players"][0]["name"], 0, "oops")]  # the rooms' history
        assert heard(w3)[0] == "players" and heard(w3) == ("watchers", [("Anonymous", None, "a blunder?")])
        heard(w1)
        done = act(w2, [w1, w3], {"type": "accept_takeback"})
        assert done[0]["event"] == {"kind": "takeback", "side": 1, "moves": ["e2e4"]}
        assert done[0]["state"]["moves"] == [] and done[0]["state"]["takeback_offer"] is None


def chat(ws, text):
    ws.send_json({"type": "chat", "text": text})


def heard(ws):
    msg = recv(ws, skip=("spectators",))
    assert msg["type"] == "chat", msg
    return msg["room"], [(x["name"], x["side"], x["text"]) for x in msg["lines"]]


def test_players_chat_reaches_everyone_and_the_watchers_chat_only_watchers(server):
    m = new_match(server, variant="chess")
    p1_name = http_state(m.p1, m.id)["players"][0]["name"]
    watcher = server.browser()
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2, \
            watcher.websocket_connect(f"/ws/games/{m.id}") as w3:
        for ws in (w1, w2, w3):
            recv_state(ws)
        chat(w1, "  good\tluck\x00 \u202e!  ")
        for ws in (w1, w2, w3):
            assert heard(ws) == ("players", [(p1_name, 0, "good luck !")])
        chat(w3, "<b>nice</b> opening")
        assert heard(w3) == ("watchers", [("Anonymous", None, "<b>nice</b> opening")])
        for ws in (w1, w2):  # the players hear nothing of it
            assert sync(ws)["type"] == "state"
    with watcher.websocket_connect(f"/ws/games/{m.id}") as again:  # a page that opens hears the history
        recv_state(again)
        assert heard(again)[1] == [(p1_name, 0, "good luck !")]
        assert heard(again)[1] == [("Anonymous", None, "<b>nice</b> opening")]


def test_chat_lines_are_length_and_rate_limited(server, clock):
    m = new_match(server, variant="chess")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        for text, reason in (("x" * 201, "a chat line has at most 200 characters"), ("  \n ", "an empty chat line"),
                             (None, 'a chat line needs its "text"'), (["hi"], 'a chat line needs its "text"')):
            chat(w1, text)
            assert recv_error(w1) == reason
        for i in range(5):
            chat(w1, f"line {i}")
            heard(w1), heard(w2)
        chat(w1, "one too many")
        assert recv_error(w1) == "too many chat lines; wait 10 s"
        assert sync(w2)["type"] == "state"  # nothing reached the opponent
        clock.advance(10_001)
        chat(w1, "later")
        assert heard(w2)[1][0][2] == "later"


def test_the_spectator_count_follows_watchers_coming_and_going(server):
    m = new_match(server, variant="chess")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        with server.browser().websocket_connect(f"/ws/games/{m.id}") as w:
            recv_state(w)
            assert recv(w1, skip=()) == {"type": "spectators", "count": 1}
            assert recv(w, skip=()) == {"type": "spectators", "count": 1}
            with m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:  # a player's page is told on joining
                recv_state(w2)
                assert recv(w2, skip=()) == {"type": "spectators", "count": 1}
        assert recv(w1, skip=()) == {"type": "spectators", "count": 0}


def test_a_colour_is_stored_with_the_game_seen_by_all_and_a_clash_is_refused(server, restart):
    m = new_match(server, variant="chess")
    watcher = server.browser()
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        before = recv_state(w1)["state"]
        recv_state(w2)
        clash = "{} is too close to your opponent's colour #3060d0: choose one that differs more"
        for colour, reason in (("#3060d0", clash.format("#3060d0")), ("#3a66d8", clash.format("#3a66d8")),
                               ("blue", "a colour is written #rrggbb"), (None, "a colour is written #rrggbb"),
                               ("#12345g", "a colour is written #rrggbb")):
            w1.send_json({"type": "set_colour", "colour": colour})
            assert recv_error(w1) == reason
        assert sync(w1)["state"]["version"] == before["version"]
        changed = act(w1, [w2], {"type": "set_colour", "colour": "#20A040"})
        assert changed[1]["event"] == {"kind": "colour", "side": 0, "colour": "#20a040"}
        assert changed[1]["state"]["colours"]["sides"] == ["#20a040", "#3060d0"]
        w2.send_json({"type": "set_colour", "colour": "#28a848"})  # the second to pick: too close to green
        assert "too close to your opponent's colour #20a040" in recv_error(w2)
        move(w1, [w2], "e2e4")  # either may change it during the game
        act(w2, [w1], {"type": "set_colour", "colour": "#d0a020"})
    assert http_state(watcher, m.id)["colours"] == {"own": None, "sides": ["#20a040", "#d0a020"]}
    server = restart(server)  # stored with the game
    assert http_state(server.browser(), m.id)["colours"]["sides"] == ["#20a040", "#d0a020"]
