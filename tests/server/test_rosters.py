"""Reprogrammed pieces on the server (super16 R13-R17): the editor's endpoints, saved rosters, the
three game modes, and that a Private roster reaches nobody but its owner before the game ends."""
from __future__ import annotations

import json

import pytest

from superchess.rules import Roster
from superchess.server.services import PREVIEWS_PER_CLIENT

from .util import act, move, new_match, ok, recv, recv_error, recv_state, register, sync, token_of

KNIGHT_03 = {"N": {"mode": "jump", "vectors": [[0, 3]]}}


def url(m) -> str:
    return f"/ws/games/{m.id}"


# -- the editor's endpoints -------------------------------------------------------------------
def test_pieces_lists_every_type_with_its_name(server):
    b = server.browser()
    body = ok(b.get("/api/variants/super16/pieces"))
    assert body["reprogrammable"] and (body["files"], body["ranks"]) == (16, 16)
    assert {p["letter"] for p in body["pieces"]} == set("KQRBNPIS AUF".replace(" ", ""))
    assert {"letter": "K", "name": "King", "label": "K"} in body["pieces"]
    assert not ok(b.get("/api/variants/chess/pieces"))["reprogrammable"]
    assert b.get("/api/variants/nope/pieces").status_code == 404


def test_a_piece_whose_data_names_its_drawing_carries_it(server):
    """Superchess's and Vanguard's Princess is the Bishop + Knight compound, super16's a royal piece:
    the drawing comes with the variant's data (the board page has no table of variants)."""
    b = server.browser()

    def princess(variant: str) -> dict:
        return next(p for p in ok(b.get(f"/api/variants/{variant}/pieces"))["pieces"] if p["name"] == "Princess")

    assert princess("superchess")["drawing"] == princess("vanguard")["drawing"] == "bishop-knight"
    assert "drawing" not in princess("super16")


def test_preview_shows_the_program_on_an_empty_board_and_in_the_start_position(server):
    b = server.browser()
    body = ok(b.post("/api/rosters/preview", json={"roster": KNIGHT_03, "letter": "N", "square": "h8"}))
    assert body == {"empty": ["h11"], "start": {"b1": ["b4"], "o1": ["o4"]}, "problem": None}
    default = ok(b.post("/api/rosters/preview", json={"roster": {}, "letter": "N", "square": "h8"}))
    assert len(default["empty"]) == 8 and set(default["start"]) == {"b1", "o1"}
    danger = ok(b.post("/api/rosters/preview", json={"roster": {"N": {"mode": "jump", "vectors": [[7, 15]]}},
                                                     "letter": "N", "square": "h8"}))
    assert "attacks the opponent's King" in danger["problem"] and danger["start"] == {}


def test_roster_previews_are_throttled_per_client(server, clock):
    """Issue 18, item 6: each preview may compile a roster's tables; a client gets
    `PREVIEWS_PER_CLIENT` a minute, then 429 with Retry-After, and others are not affected."""
    limit, window_ms = PREVIEWS_PER_CLIENT
    flood, other = server.browser(), server.browser(client=("10.0.0.9", 5000))
    body = {"roster": KNIGHT_03, "letter": "N", "square": "h8"}
    for _ in range(limit):
        ok(flood.post("/api/rosters/preview", json=body))
    refused = flood.post("/api/rosters/preview", json=body)
    assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= window_ms // 1000
    assert "previews" in refused.json()["detail"]
    ok(other.post("/api/rosters/preview", json=body))
    clock.advance(window_ms)
    ok(flood.post("/api/rosters/preview", json=body))


@pytest.mark.parametrize("body,message", [
    ({"roster": {"N": {"mode": "jump", "vectors": [[1, 2], [0, 0]]}}, "letter": "N", "square": "h8"}, "(0, 0)"),
    ({"roster": {"N": {"mode": "jump", "vectors": [[16, 1]]}}, "letter": "N", "square": "h8"}, "(16, 1)"),
    ({"roster": {"N": {"mode": "fly", "vectors": [[1, 2]]}}, "letter": "N", "square": "h8"}, "unknown mode"),
    ({"roster": {"Z": {"mode": "jump", "vectors": [[1, 2]]}}, "letter": "N", "square": "h8"}, "unknown piece"),
    ({"roster": {}, "letter": "Z", "square": "h8"}, "no piece"),
    ({"roster": {}, "letter": "N", "square": "z99"}, "square"),
    ({"variant": "chess", "roster": KNIGHT_03, "letter": "N", "square": "e4"}, "cannot be reprogrammed"),
])
def test_preview_refuses_bad_input_with_a_clear_message(server, body, message):
    r = server.browser().post("/api/rosters/preview", json=body)
    assert r.status_code == 400 and message in r.json()["detail"]


def test_accounts_save_reuse_and_delete_rosters_guests_are_told_to_use_the_browser(server):
    guest, alice, bob = server.browser(), server.browser(), server.browser()
    assert "browser" in guest.get("/api/rosters").json()["detail"]
    assert guest.put("/api/rosters/x", json={"roster": KNIGHT_03}).status_code == 403
    register(alice, "alice")
    register(bob, "bob")
    saved = ok(alice.put("/api/rosters/knights", json={"variant": "super16", "roster": KNIGHT_03}))
    assert saved == {"name": "knights", "variant": "super16", "roster": KNIGHT_03}
    ok(alice.put("/api/rosters/knights", json={"roster": {"Q": {"mode": "step", "vectors": [[0, 4]]}}}))
    assert [r["roster"] for r in ok(alice.get("/api/rosters"))["rosters"]] == [
        {"Q": {"mode": "step", "vectors": [[0, 4]]}}]  # replaced, not duplicated
    assert ok(bob.get("/api/rosters")) == {"rosters": []}  # each account sees its own
    bad = alice.put("/api/rosters/bad", json={"roster": {"N": {"mode": "jump", "vectors": [[3, -20]]}}})
    assert bad.status_code == 400 and "(3, -20)" in bad.json()["detail"]
    ok(alice.put("/api/rosters/a%2Fb c", json={"roster": KNIGHT_03}))  # any characters, URL-encoded
    assert [r["name"] for r in ok(alice.get("/api/rosters"))["rosters"]] == ["a/b c", "knights"]
    assert ok(alice.delete("/api/rosters/a%2Fb c")) == {"ok": True}
    assert bob.delete("/api/rosters/knights").status_code == 404
    assert ok(alice.delete("/api/rosters/knights")) == {"ok": True}
    assert ok(alice.get("/api/rosters")) == {"rosters": []}


# -- match creation ---------------------------------------------------------------------------
@pytest.mark.parametrize("body,message", [
    ({"mode": "secret"}, "unknown mode"),
    ({"mode": "private", "variant": "chess"}, "cannot be reprogrammed"),
    ({"mode": "symmetric"}, "needs a roster"),
    ({"mode": "symmetric", "roster": {"N": {"mode": "jump", "vectors": [[0, 0]]}}}, "(0, 0)"),
    ({"mode": "symmetric", "roster": {"N": {"mode": "jump", "vectors": [[7, 15]]}}}, "opponent's King"),
    ({"mode": "default", "roster": KNIGHT_03}, "only symmetric"),
])
def test_bad_modes_and_rosters_are_refused_at_creation(server, body, message):
    r = server.browser().post("/api/matches", json=body)
    assert r.status_code == 400 and message in r.json()["detail"]


def test_default_mode_has_no_set_up_and_default_rosters(server):
    m = new_match(server)
    s = m.state(m.p1)
    assert (s["mode"], s["status"], s["rosters"]) == ("default", "active", [{}, {}])


def test_symmetric_roster_is_shown_in_the_invitation_and_both_sides_play_it_mirrored(server):
    creator = server.browser()
    created = ok(creator.post("/api/matches", json={"mode": "symmetric", "roster": KNIGHT_03}))
    opponent = server.browser()
    inv = ok(opponent.get(f"/api/invitations/{token_of(created['invite_url'])}"))
    assert (inv["mode"], inv["roster"]) == ("symmetric", KNIGHT_03)
    ok(opponent.post(f"/api/invitations/{token_of(created['invite_url'])}/accept"))
    s1 = ok(creator.get(f"/api/games/{created['game_id']}"))
    assert s1["status"] == "active" and s1["rosters"] == [KNIGHT_03, KNIGHT_03]
    assert s1["legal"]["b1"] == ["b4"]
    with creator.websocket_connect(f"/ws/games/{created['game_id']}") as w1, \
            opponent.websocket_connect(f"/ws/games/{created['game_id']}") as w2:
        recv_state(w1), recv_state(w2)
        s2 = move(w1, [w2], "b1b4")[1]["state"]
        assert s2["legal"]["b16"] == ["b13"]  # Player 2: (0, 3) becomes (0, -3)


# -- private mode -----------------------------------------------------------------------------
def private_match(server):
    return new_match(server, mode="private")


def test_private_game_starts_in_set_up_and_begins_when_both_have_submitted(server):
    m = private_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        s = recv_state(w1)["state"]
        recv_state(w2)
        assert s["status"] == "setup" and s["legal"] == {} and s["setup_deadline"] is not None
        assert s["rosters"] == [None, None]  # nothing submitted yet, not even one's own
        w1.send_json({"type": "move", "move": "h2h4"})
        assert "choosing their rosters" in recv_error(w1)
        msgs = act(w1, [w2], {"type": "submit_roster", "roster": KNIGHT_03})
        assert all(x["event"] == {"kind": "roster_submitted", "side": 0} for x in msgs)
        assert msgs[0]["state"]["roster_submitted"] == [True, False] and msgs[0]["state"]["status"] == "setup"
        w1.send_json({"type": "submit_roster", "roster": {}})
        assert "already submitted" in recv_error(w1)
        msgs = act(w2, [w1], {"type": "submit_roster", "roster": None})  # keeps the default
        mine = msgs[1]["state"]
        assert mine["status"] == "active" and mine["clock"]["running"] == 0 and not mine["clock"]["timed"]
        assert mine["legal"]["b1"] == ["b4"]
        move(w1, [w2], "b1b4")


def test_private_roster_errors_reach_only_the_submitter_and_change_nothing(server):
    m = private_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        v = recv_state(w1)["version"]
        recv_state(w2)
        for roster, message in (({"N": {"mode": "jump", "vectors": [[2, 2], [2, 2]]}}, "(2, 2) is listed twice"),
                                ({"N": {"mode": "jump", "vectors": [[7, 15]]}}, "opponent's King"),
                                ("knights", "mapping")):
            w1.send_json({"type": "submit_roster", "roster": roster})
            assert message in recv_error(w1)
        assert sync(w2)["version"] == v  # the opponent heard nothing
        assert sync(w1)["state"]["roster_submitted"] == [False, False]


def test_private_set_up_deadline_gives_the_default_to_who_did_not_submit(server, clock):
    m = private_match(server)
    with m.p1.websocket_connect(url(m)) as w1:
        s = recv_state(w1)["state"]
        act(w1, [], {"type": "submit_roster", "roster": KNIGHT_03})
        clock.t = s["setup_deadline"]
        server.check_clocks()
        msg = recv_state(w1)
        assert msg["event"] == {"kind": "start"} and msg["state"]["status"] == "active"
        assert msg["state"]["rosters"] == [KNIGHT_03, None]
    assert server.store.game(m.id).roster1 is None


def test_an_aborted_private_game_never_reveals_the_rosters(server):
    """Abort-to-peek (issue 18, item 5): aborting during the set-up or after one move shows each
    player its own roster only, watchers none, and there is no record to read them from."""
    for moves in ([], ["b1b4"]):
        m = private_match(server)
        watcher = server.browser()
        with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
            recv_state(w1), recv_state(w2)
            act(w1, [w2], {"type": "submit_roster", "roster": KNIGHT_03})
            if moves:
                act(w2, [w1], {"type": "submit_roster", "roster": {}})
                move(w1, [w2], moves[0])
            states = [msg["state"] for msg in act(w2, [w1], {"type": "abort"})]
        assert [s["status"] for s in states] == ["aborted", "aborted"]
        assert states[0]["rosters"] == [None, {}] and states[1]["rosters"] == [KNIGHT_03, None]
        assert ok(watcher.get(f"/api/games/{m.id}"))["rosters"] == [None, None]
        assert m.state(m.p2)["rosters"] == [None, {}]
        for who in (m.p1, m.p2, watcher):
            r = who.get(f"/api/games/{m.id}/record")
            assert r.status_code == 409 and "N:jump" not in r.text


def test_a_private_game_resigned_before_both_moved_keeps_the_rosters_secret(server):
    m = private_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        recv_state(w1), recv_state(w2)
        act(w1, [w2], {"type": "submit_roster", "roster": KNIGHT_03})
        act(w2, [w1], {"type": "submit_roster", "roster": {}})
        move(w1, [w2], "b1b4")
        end = act(w2, [w1], {"type": "resign"})[0]["state"]
    assert end["status"] == "finished" and end["rosters"] == [None, {}]
    assert m.p2.get(f"/api/games/{m.id}/record").status_code == 409


def test_private_game_survives_a_restart_with_its_rosters(server, restart):
    m = private_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        recv_state(w1), recv_state(w2)
        act(w1, [w2], {"type": "submit_roster", "roster": KNIGHT_03})
        act(w2, [w1], {"type": "submit_roster", "roster": {}})
        move(w1, [w2], "b1b4")
    server2 = restart(server)
    p1 = server2.browser(cookies=dict(m.p1.cookies))
    s = ok(p1.get(f"/api/games/{m.id}"))
    assert s["moves"] == ["b1b4"] and s["rosters"] == [KNIGHT_03, None] and s["status"] == "active"
    p2 = server2.browser(cookies=dict(m.p2.cookies))
    with p2.websocket_connect(url(m)) as w2, p1.websocket_connect(url(m)) as w1:
        recv_state(w2), recv_state(w1)
        move(w2, [w1], "b15b14")
        assert sync(w1)["state"]["legal"]["b4"] == ["b7"]


# -- the leak test ----------------------------------------------------------------------------
HIDDEN = ({"N": {"mode": "jump", "vectors": [[0, 3], [11, 13], [-9, 14]]},
           "U": {"mode": "slide", "vectors": [[3, 13]]}},
          {"Q": {"mode": "step", "vectors": [[0, 7], [-13, 6], [12, -5]]},
           "N": {"mode": "jump", "vectors": [[1, 3], [-14, 9]]}})


def encodings(roster_data: dict) -> set[str]:
    """Byte sequences by which the server could encode a roster or one of its programs."""
    roster = Roster.from_data(roster_data)
    out = {roster.text()}
    for letter, program in roster.items():
        out |= {program.text(), f"{letter}:{program.text()}", ",".join(f"{dx},{dy}" for dx, dy in program.vectors)}
        vectors = [list(v) for v in program.vectors]
        for sep in ((", ", ": "), (",", ":")):
            out.add(json.dumps(vectors, separators=sep))
            out.add(json.dumps({"mode": program.mode, "vectors": vectors}, separators=sep))
            out |= {json.dumps(v, separators=sep) for v in vectors if abs(v[0]) > 8 or abs(v[1]) > 8}
    for sep in ((", ", ": "), (",", ":")):
        out.add(json.dumps(roster_data, separators=sep))
        out.add(json.dumps(roster.to_data(), separators=sep))
    return out


class Wire:
    """Everything one browser received: websocket frames and HTTP bodies, as text."""

    def __init__(self, browser) -> None:
        self.browser, self.seen = browser, []

    def get(self, path: str):
        r = self.browser.get(path)
        self.seen.append(r.text)
        return r

    def recv(self, ws) -> dict:
        msg = recv(ws)
        self.seen.append(json.dumps(msg, separators=(",", ":")))
        self.seen.append(json.dumps(msg))
        return msg

    def leaked(self, secrets: set[str]) -> list[str]:
        return sorted(s for s in secrets for text in self.seen if s in text)


def test_no_hidden_vector_reaches_the_opponent_or_a_watcher_before_the_end(server):
    m = private_match(server)
    watcher_browser = server.browser()
    wires = {"p1": Wire(m.p1), "p2": Wire(m.p2), "watcher": Wire(watcher_browser)}
    secrets = {"p1": encodings(HIDDEN[0]), "p2": encodings(HIDDEN[1])}
    # what each must never see before the end: the other side's (watchers: both)
    forbidden = {"p1": secrets["p2"], "p2": secrets["p1"], "watcher": secrets["p1"] | secrets["p2"]}

    def look_around():
        for name, wire in wires.items():
            wire.get(f"/api/games/{m.id}")
            wire.get("/api/games")
            wire.get(f"/api/invitations/{m.token}")
            r = wire.get(f"/api/games/{m.id}/record")
            assert r.status_code == 409 and "Private" in r.json()["detail"]
            wire.get(f"/game/{m.id}")

    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2, \
            watcher_browser.websocket_connect(url(m)) as ww:
        sockets = {"p1": w1, "p2": w2, "watcher": ww}

        def send(who: str, payload: dict, expect_error: bool = False):
            sockets[who].send_json(payload)
            if expect_error:
                msg = wires[who].recv(sockets[who])
                assert msg["type"] == "error", msg
                return msg
            msgs = {name: wires[name].recv(ws) for name, ws in sockets.items()}
            assert all(x["type"] == "state" for x in msgs.values()), msgs
            return msgs

        for name, ws in sockets.items():
            wires[name].recv(ws)
        look_around()
        send("watcher", {"type": "submit_roster", "roster": HIDDEN[0]}, expect_error=True)  # not a player
        send("p1", {"type": "submit_roster", "roster": HIDDEN[0]})
        look_around()
        send("p2", {"type": "submit_roster", "roster": HIDDEN[1]})
        look_around()
        # a game in which both programs are used, refused moves included
        plan = [("p1", "b1b4"), ("p2", "b16c13"), ("p1", "b4b7"), ("p2", "c13d10"), ("p1", "o1o4"),
                ("p2", "d10e7")]
        for who, text in plan:
            other = "p2" if who == "p1" else "p1"
            send(other, {"type": "move", "move": text}, expect_error=True)  # out of turn
            send(who, {"type": "move", "move": "a1a9"}, expect_error=True)  # illegal
            msgs = send(who, {"type": "move", "move": text})
            assert msgs[who]["state"]["moves"][-1] == text
        send("p1", {"type": "offer_draw"})
        send("p2", {"type": "decline_draw"})
        look_around()
        for name, wire in wires.items():
            assert wire.leaked(forbidden[name]) == [], f"{name} received a hidden roster"
        assert wires["p1"].leaked(secrets["p1"]), "the test must see the owner's own roster"
        # the end reveals both
        end = send("p2", {"type": "resign"})
    for name in ("p1", "p2", "watcher"):
        assert end[name]["state"]["rosters"] == [HIDDEN[0], HIDDEN[1]]
    record = m.p2.get(f"/api/games/{m.id}/record").text
    assert f'Roster1 "{Roster.from_data(HIDDEN[0]).text()}"' in record
    assert f'Roster2 "{Roster.from_data(HIDDEN[1]).text()}"' in record


def test_server_downtime_during_the_set_up_is_not_charged(server, restart, clock):
    m = private_match(server)
    first = m.state(m.p1)
    clock.advance(60_000)
    with m.p1.websocket_connect(url(m)) as w1:
        recv_state(w1)
        act(w1, [], {"type": "submit_roster", "roster": KNIGHT_03})
    left = first["setup_deadline"] - clock.t  # what was left at the last event
    clock.advance(3_600_000)  # the server is down for an hour (nothing happens on the idle old one)
    server2 = restart(server)
    s = ok(server2.browser(cookies=dict(m.p2.cookies)).get(f"/api/games/{m.id}"))
    assert s["status"] == "setup" and s["setup_deadline"] == clock.t + left


@pytest.mark.parametrize("status", ["setup", "active"])
def test_a_game_whose_stored_roster_cannot_be_read_can_still_be_read_and_aborted(server, restart, status):
    """A row holding a roster the rules refuse (as an earlier version stored `KQ:...`) loads with
    that side's default roster; its state explains, moves are refused, and either player may abort
    (issue 18, item 3)."""
    m = private_match(server)
    with m.p1.websocket_connect(url(m)) as w1, m.p2.websocket_connect(url(m)) as w2:
        recv_state(w1), recv_state(w2)
        act(w1, [w2], {"type": "submit_roster", "roster": KNIGHT_03})
        if status == "active":
            act(w2, [w1], {"type": "submit_roster", "roster": {}})
            move(w1, [w2], "b1b4")
            move(w2, [w1], "b15b14")
    row = server.store.game(m.id)
    row.roster0 = "KQ:jump:1,2"
    server.store.save_games([(row, None)])
    server2 = restart(server)
    p1, p2 = (server2.browser(cookies=dict(b.cookies)) for b in (m.p1, m.p2))
    s = ok(p2.get(f"/api/games/{m.id}"))
    assert s["status"] == status and "cannot be read" in s["damage"] and s["can_abort"]
    with p1.websocket_connect(url(m)) as w1, p2.websocket_connect(url(m)) as w2:
        recv_state(w1), recv_state(w2)
        if status == "active":
            w1.send_json({"type": "move", "move": "b4b7"})
            assert "cannot go on" in recv_error(w1)
        end = act(w2, [w1], {"type": "abort"})[0]["state"]
    assert end["status"] == "aborted"


def test_unreadable_stored_rosters_break_neither_the_saved_list_nor_an_invitation(server):
    """Rows that an earlier version stored with bad keys (issue 18, item 3): the saved list names the
    problem (the row can be replaced or deleted), the invitation shows and refuses it, nothing 500s."""
    alice, bob = server.browser(), server.browser()
    register(alice, "alice")
    ok(alice.put("/api/rosters/old", json={"roster": KNIGHT_03}))
    created = ok(alice.post("/api/matches", json={"mode": "symmetric", "roster": KNIGHT_03}))
    with server.store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE rosters SET roster = 'KQ:jump:1,2'")
        conn.exec_driver_sql("UPDATE games SET roster0 = 'KQ:jump:1,2', roster1 = 'KQ:jump:1,2'")
    [entry] = ok(alice.get("/api/rosters"))["rosters"]
    assert entry["roster"] is None and "cannot be read" in entry["problem"]
    ok(alice.put("/api/rosters/old", json={"roster": KNIGHT_03}))
    assert ok(alice.get("/api/rosters"))["rosters"][0]["roster"] == KNIGHT_03
    token = token_of(created["invite_url"])
    assert ok(bob.get(f"/api/invitations/{token}"))["roster"] is None
    r = bob.post(f"/api/invitations/{token}/accept")
    assert r.status_code == 409 and "cannot be read" in r.json()["detail"]
    assert server.store.game(created["game_id"]).status == "waiting"
