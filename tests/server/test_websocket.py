"""Websocket play: states and versions, `legal` for the player to move only, refused input changes
nothing, watchers, sync and reconnection."""
from __future__ import annotations

import json
import re

import pytest
from starlette.websockets import WebSocketDisconnect

from superchess.server.routers.websocket import MAX_MESSAGE

from .util import http_state, legal_moves, move, new_match, ok, recv, recv_error, recv_state, sync


def url(m) -> str:
    return f"/ws/games/{m.id}"


def test_players_receive_states_with_increasing_versions_and_legal_for_the_mover_only(server):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        s1, s2 = recv_state(w1), recv_state(w2)
        v = s1["version"]
        assert v == s2["version"] == 1 and "event" not in s1  # created = 0, accepted = 1
        assert s1["state"]["you"] == 0 and s2["state"]["you"] == 1
        assert s1["state"]["legal"]["h2"] == ["h3", "h4"]  # each move as its text after the origin
        assert s2["state"]["legal"] == {}
        assert s1["state"]["can_abort"] and s2["state"]["can_abort"]
        played = []
        for i, (ws, other, text) in enumerate([(w1, w2, "h2h4"), (w2, w1, "h15h13"), (w1, w2, "b1c3")], 1):
            mine, theirs = move(ws, [other], text)
            played.append(text)
            side = (i - 1) % 2
            for msg in (mine, theirs):
                assert msg["version"] == v + i
                assert msg["event"] == {"kind": "move", "move": text, "side": side}
                assert msg["state"]["moves"] == played and msg["state"]["turn"] == side ^ 1
                frm, to = re.fullmatch(r"([a-p]\d+)([a-p]\d+)", text).groups()
                assert msg["state"]["last_move"] == {"from": frm, "to": to}
            assert mine["state"]["legal"] == {} and theirs["state"]["legal"]
            assert mine["state"]["you"] == side and theirs["state"]["you"] == side ^ 1
        assert theirs["state"]["pieces"]["c3"] == "N" and "b1" not in theirs["state"]["pieces"]
        assert not theirs["state"]["can_abort"]  # both sides have moved


def test_the_legal_moves_are_the_rules_legal_moves(server):
    from superchess.rules import Board
    m = new_match(server)
    state = http_state(m.p1, m.id)
    sent = sorted(text for texts in legal_moves(state).values() for text in texts)
    assert sent == sorted(mv.text for mv in Board("super16").legal_moves)


@pytest.mark.parametrize("who, payload, message", [
    ("p1", {"type": "move", "move": "h2h9"}, "illegal move h2h9"),
    ("p1", {"type": "move", "move": "z2z4"}, "bad move text"),
    ("p1", {"type": "move", "move": "h2h4q"}, "not a promotion"),
    ("p2", {"type": "move", "move": "h15h13"}, "it is not your turn"),
    ("p1", {"type": "move"}, "a move needs its text"),
    ("p1", {"type": "move", "move": 42}, "a move needs its text"),
    ("p1", {"type": "move", "move": "h2h4" * 10}, "a move needs its text"),
    ("watcher", {"type": "move", "move": "h2h4"}, "only the players of this game can do that"),
    ("watcher", {"type": "resign"}, "only the players of this game can do that"),
    ("watcher", {"type": "abort"}, "only the players of this game can do that"),
    ("p1", "{not json", "malformed message: not JSON"),
    ("p1", "", "malformed message: not JSON"),
    ("p1", [1, 2], 'malformed message: expected an object with a "type"'),
    ("p1", "move h2h4", "malformed message: not JSON"),
    ("p1", {"move": "h2h4"}, 'malformed message: expected an object with a "type"'),
    ("p1", {"type": 7}, 'malformed message: expected an object with a "type"'),
    ("p1", {"type": "castle"}, "unknown message type 'castle'"),
    ("p1", {"type": "start"}, "unknown message type 'start'"),
    ("p1", {"type": "timeout"}, "unknown message type 'timeout'"),
    ("p1", {"type": "move", "move": "h2h4", "pad": "x" * MAX_MESSAGE}, f"message too large (at most {MAX_MESSAGE} bytes)"),
    ("p1", {"type": "submit_roster", "roster": {}}, "rosters are submitted before the first move of a Private game"),
    ("p1", {"type": "accept_draw"}, "there is no draw offer to accept"),
    ("p2", {"type": "decline_draw"}, "there is no draw offer to decline"),
    ("p1", {"type": "claim_draw"}, "no draw can be claimed in this position"),
    ("p2", {"type": "claim_draw"}, "a draw can be claimed only on your own turn"),
])
def test_refused_input_gives_an_error_and_changes_nothing(server, who, payload, message):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2, \
            server.browser().websocket_connect(url(m)) as wv:
        sockets = {"p1": w1, "p2": w2, "watcher": wv}
        before = {k: recv_state(ws) for k, ws in sockets.items()}
        ws = sockets[who]
        ws.send_text(payload if isinstance(payload, str) else json.dumps(payload))
        assert message in recv_error(ws)
        for k, w in sockets.items():  # no broadcast to anyone, same version, same position
            after = sync(w)
            assert after["version"] == before[k]["version"]
            assert after["state"]["moves"] == [] and after["state"]["status"] == "active"
        assert server.store.moves(m.id) == [] and server.store.game(m.id).version == before["p1"]["version"]
        # the connection still works: the player to move can play
        move(w1, [w2, wv], "h2h4")


def test_an_oversized_binary_frame_is_refused_too(server):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as w1:
        v = recv_state(w1)["version"]
        w1.send_bytes(json.dumps({"type": "move", "move": "h2h4", "pad": "y" * (MAX_MESSAGE + 1)}).encode())
        assert "too large" in recv_error(w1)
        w1.send_bytes(json.dumps({"type": "move", "move": "h2h4"}).encode())  # a small one is fine
        msg = recv_state(w1)
        assert msg["version"] == v + 1 and msg["state"]["moves"] == ["h2h4"]


def test_a_watcher_sees_every_change_as_a_watcher(server):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2, \
            server.browser().websocket_connect(url(m)) as wv:
        recv_state(w1), recv_state(w2)
        first = recv_state(wv)["state"]
        assert first["you"] is None and first["legal"] == {} and first["colours"] == {"own": None, "sides": ["#d03030", "#3060d0"]}
        assert not first["can_abort"] and not first["can_claim_draw"] and first["invite_url"] is None
        for ws, other, text in [(w1, w2, "h2h4"), (w2, w1, "h15h13")]:
            ws.send_json({"type": "move", "move": text})
            recv_state(ws), recv_state(other)
            seen = recv_state(wv)
            assert seen["event"]["move"] == text and seen["state"]["you"] is None and seen["state"]["legal"] == {}
        ws_offer = w1
        ws_offer.send_json({"type": "offer_draw"})
        recv_state(w1), recv_state(w2)
        assert recv_state(wv)["event"] == {"kind": "draw_offer", "side": 0}
        wv.send_json({"type": "accept_draw"})
        assert recv_error(wv) == "only the players of this game can do that"
        assert sync(w1)["state"]["status"] == "active"


def test_sync_returns_the_current_state(server):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        recv_state(w1), recv_state(w2)
        last = move(w1, [w2], "h2h4")[1]
        again = sync(w2)
        assert again["version"] == last["version"] and "event" not in again
        assert again["state"]["moves"] == ["h2h4"] and again["state"]["legal"] == last["state"]["legal"]
        assert sync(w2)["version"] == last["version"]  # sync changes nothing


def test_reconnecting_gets_the_latest_state(server):
    m = new_match(server)
    with m.p2.websocket_connect(url(m)) as w2:
        recv_state(w2)
        with m.p1.websocket_connect(url(m)) as w1:
            recv_state(w1)
            move(w1, [w2], "h2h4")
        # Player 1 has gone; Player 2 moves meanwhile
        w2.send_json({"type": "move", "move": "h15h13"})
        latest = recv_state(w2)
        with m.p1.websocket_connect(url(m)) as w1:
            back = recv_state(w1)
            assert back["version"] == latest["version"] and "event" not in back
            assert back["state"]["moves"] == ["h2h4", "h15h13"] and back["state"]["legal"]
            move(w1, [w2], "g2g4")


def test_several_connections_of_one_player_all_receive_states(server):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as a, m.p1.websocket_connect(url(m)) as b:
        recv_state(a), recv_state(b)
        move(a, [b], "h2h4")
        assert sync(b)["state"]["you"] == 0


def test_actions_before_the_invitation_is_accepted_are_refused(server):
    m = new_match(server, accept=False)
    with m.creator.websocket_connect(url(m)) as w:
        first = recv_state(w)
        assert first["state"]["status"] == "waiting" and first["state"]["legal"] == {}
        w.send_json({"type": "move", "move": "h2h4"})
        assert "not started" in recv_error(w)
        # accepting is announced to the connections already open
        ok(m.opponent.post(f"/api/invitations/{m.token}/accept"))
        started = recv_state(w)
        assert started["event"] == {"kind": "start"} and started["version"] == first["version"] + 1
        assert started["state"]["status"] == "active" and started["state"]["legal"]


def test_unknown_game_gets_an_error_then_the_socket_closes(server):
    with server.browser().websocket_connect("/ws/games/nope") as ws:
        assert recv(ws, timeout=1) == {"type": "error", "message": "no such game"}
        with pytest.raises(WebSocketDisconnect) as e:
            recv(ws)
        assert e.value.code == 4404


def test_captures_are_listed_by_the_side_that_lost_them_including_mutual_destruction(server):
    from ..rules.helpers import make_fen
    fen = make_fen("super16", {"i1": "K", "a1": "R", "c1": "B", "i16": "k", "a10": "p", "b11": "f", "h8": "n"})
    m = new_match(server, fen=fen)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        recv_state(w1), recv_state(w2)
        s = move(w1, [w2], "a1a10")[1]["state"]  # the pawn is garrisoned by the Fortress: both go (R4)
        assert s["captured"] == [["R"], ["p"]]
        assert "a10" not in s["pieces"] and "a1" not in s["pieces"] and s["pieces"]["b11"] == "f"
        move(w2, [w1], "i16i15")
        s = move(w1, [w2], "c1h6")[1]["state"]
        assert s["captured"] == [["R"], ["p"]]
        s = move(w2, [w1], "h8g6")[1]["state"]
        s = move(w1, [w2], "h6g5")[1]["state"]
        assert s["captured"] == [["R"], ["p"]]
        s = sync(w1)["state"]
        assert s["status"] == "active"


def test_promotion_with_a_letter_and_by_default(server):
    m = new_match(server, variant="chess", fen="8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        legal = recv_state(w1)["state"]["legal"]["b7"]
        recv_state(w2)
        assert sorted(legal) == ["b8b", "b8n", "b8q", "b8r"]
        w1.send_json({"type": "move", "move": "b7b8k"})
        assert "b7b8k" in recv_error(w1)
        s = move(w1, [w2], "b7b8n")[0]["state"]
        assert s["pieces"]["b8"] == "N" and s["moves"] == ["b7b8n"]
    m = new_match(server, variant="chess", fen="8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
    with m.p1.websocket_connect(url(m)) as w1:
        recv_state(w1)
        w1.send_json({"type": "move", "move": "b7b8"})
        msg = recv_state(w1)
        assert msg["event"]["move"] == "b7b8q" and msg["state"]["pieces"]["b8"] == "Q"


def test_declining_is_announced_to_the_creators_open_socket(server):
    m = new_match(server, accept=False)
    with m.creator.websocket_connect(url(m)) as w:
        v = recv_state(w)["version"]
        ok(m.opponent.post(f"/api/invitations/{m.token}/decline"))
        msg = recv_state(w)
        # (docs/protocol.md does not list this event kind)
        assert msg["version"] == v + 1 and msg["event"] == {"kind": "declined"}
        assert msg["state"]["status"] == "declined" and msg["state"]["invite_url"] is None


def test_the_creator_may_withdraw_an_open_invitation(server):
    m = new_match(server, accept=False)
    assert ok(m.creator.post(f"/api/invitations/{m.token}/decline")) == {"ok": True}
    assert m.opponent.post(f"/api/invitations/{m.token}/accept").status_code == 409


@pytest.mark.parametrize("who", ["p1", "p2", "watcher"])
def test_a_client_cannot_declare_a_time_out(server, who):
    m = new_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2, \
            server.browser().websocket_connect(url(m)) as wv:
        sockets = {"p1": w1, "p2": w2, "watcher": wv}
        versions = {k: recv_state(ws)["version"] for k, ws in sockets.items()}
        sockets[who].send_json({"type": "timeout"})
        recv_error(sockets[who])
        for k, ws in sockets.items():
            assert sync(ws)["version"] == versions[k]
