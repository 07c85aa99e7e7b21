"""Creating matches (R19 who starts, FEN, time controls), invitations by link and by account name."""
from __future__ import annotations

import re

import pytest

from superchess.rules import Board

from ..rules.helpers import make_fen
from .util import http_state, new_match, ok, register, token_of

R18 = {"bullet-1+0": (60, 0), "blitz-3+2": (180, 2), "blitz-5+0": (300, 0), "rapid-10+5": (600, 5),
       "rapid-15+10": (900, 10), "classical-30+30": (1800, 30)}


def test_options_list_the_variants_and_the_r18_time_controls(server):
    opts = ok(server.browser().get("/api/options"))
    variants = {v["name"]: v for v in opts["variants"]}
    assert variants["super16"] == {"name": "super16", "title": "Super Chess 16x16", "files": 16, "ranks": 16,
                                   "reprogrammable": True, "holdings": False, "setups": False,
                                   "multi_move": False, "named_pieces": True}
    assert variants["chess"]["files"] == 8 and not variants["chess"]["reprogrammable"]
    assert variants["superchess"]["holdings"] and variants["superchess"]["setups"]
    assert opts["levels"] == list(range(1, 9))
    tcs = {tc["id"]: tc for tc in opts["time_controls"]}
    for tc_id, (initial, increment) in R18.items():
        assert (tcs[tc_id]["initial"], tcs[tc_id]["increment"], tcs[tc_id]["daily"]) == (initial, increment, False)
    assert tcs["daily"]["daily"] is True and tcs["daily"]["name"] == "Daily"


def test_http_game_state_is_the_bare_state(server):
    """docs/protocol.md: `GET /api/games/{id}` → the game state."""
    m = new_match(server)
    body = ok(m.p1.get(f"/api/games/{m.id}"))
    assert body["id"] == m.id and body["status"] == "active" and body["you"] == 0


def test_defaults_super16_creator_is_player_1_and_moves_first(server):
    creator, opponent = server.browser(), server.browser()
    created = ok(creator.post("/api/matches", json={}))
    creator_name = ok(creator.get("/api/me"))["name"]  # the guest made by creating the match
    gid = created["game_id"]
    waiting = http_state(creator, gid)
    assert waiting["status"] == "waiting" and waiting["you"] == 0 and waiting["variant"] == "super16"
    assert waiting["players"] == [{"name": creator_name, "side": 0}, {"name": None, "side": 1}]
    assert waiting["invite_url"] == created["invite_url"] and waiting["legal"] == {}
    assert waiting["fen"] == Board("super16").fen() and waiting["moves"] == []
    assert waiting["time_control"] == {"id": "blitz-3+2", "name": "Blitz 3+2"}
    assert waiting["clock"]["running"] is None
    invitation = ok(opponent.get(f"/api/invitations/{token_of(created['invite_url'])}"))
    assert invitation["game_id"] == gid and invitation["creator"] == creator_name
    assert invitation["your_side"] == 1 and invitation["status"] == "waiting" and invitation["fen"] is None
    assert invitation["variant"] == "super16" and invitation["time_control"] == "Blitz 3+2"
    assert ok(opponent.post(f"/api/invitations/{token_of(created['invite_url'])}/accept")) == {"game_id": gid}
    opponent_name = ok(opponent.get("/api/me"))["name"]
    mine, theirs = http_state(creator, gid), http_state(opponent, gid)
    assert mine["status"] == "active" and mine["turn"] == 0 and mine["you"] == 0 and theirs["you"] == 1
    assert mine["players"] == [{"name": creator_name, "side": 0}, {"name": opponent_name, "side": 1}]
    assert "h2" in mine["legal"] and theirs["legal"] == {}
    assert mine["clock"]["running"] == 0 and mine["invite_url"] is None
    summary = ok(creator.get("/api/games"))["ongoing"][0]
    assert summary["id"] == gid and summary["your_side"] == 0 and summary["your_turn"] is True
    assert summary["opponent"] == opponent_name and summary["status"] == "active" and summary["result"] == "*"
    other = ok(opponent.get("/api/games"))["ongoing"][0]
    assert other["your_side"] == 1 and other["your_turn"] is False and other["opponent"] == creator_name


def test_creator_side_1_makes_the_creator_player_2(server):
    m = new_match(server, creator_side=1)
    creator, opponent = http_state(m.creator, m.id), http_state(m.opponent, m.id)
    assert creator["you"] == 1 and opponent["you"] == 0 and creator["turn"] == 0
    assert opponent["legal"] and creator["legal"] == {}
    assert ok(m.opponent.get("/api/games"))["ongoing"][0]["your_turn"] is True


@pytest.mark.parametrize("variant", ["super16", "chess"])
def test_a_valid_fen_is_the_start_and_carries_its_side_to_move(server, variant):
    king = {"super16": ("i1", "i16"), "chess": ("e1", "e8")}[variant]
    fen = make_fen(variant, {king[0]: "K", king[1]: "k", "a1": "R", "h7": "p"}, side="b", halfmove=7, fullmove=31)
    m = new_match(server, variant=variant, fen=fen)
    state = http_state(m.p1, m.id)
    assert state["fen"] == fen and state["variant"] == variant and state["turn"] == 1
    assert state["pieces"] == {king[0]: "K", king[1]: "k", "a1": "R", "h7": "p"}
    assert state["clock"]["running"] == 1
    assert http_state(m.p2, m.id)["legal"] and state["legal"] == {}  # R19: Player 2 starts here
    record = m.p1.get(f"/api/games/{m.id}/record").text
    assert f'[FEN "{fen}"]' in record


@pytest.mark.parametrize("fen, words", [
    ("not a fen", "6 fields"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "ranks"),
    ("rnbuabsqkibaubnr/16/16/16/16/16/16/16/16/16/16/16/16/16/16/RNBUABSQKIBAUBNX w - - 0 1", "unknown piece"),
    ("15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 w - - 0 1", "King"),
    ("15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 x - - 0 1", "side to move"),
])
def test_an_invalid_fen_is_refused_clearly(server, fen, words):
    b = server.browser()
    r = b.post("/api/matches", json={"fen": fen})
    assert r.status_code == 400
    detail = r.json()["detail"]
    assert detail.startswith("bad start position: ") and words in detail
    assert ok(b.get("/api/games")) == {"ongoing": [], "finished": [], "invitations": []}


def test_a_blank_fen_means_the_default_array(server):
    m = new_match(server, fen="   ")
    assert http_state(m.p1, m.id)["fen"] == Board("super16").fen()


@pytest.mark.parametrize("body, detail", [
    ({"variant": "xiangqi"}, "unknown variant 'xiangqi'"),
    ({"time_control": "blitz-4+0"}, "unknown time control 'blitz-4+0'"),
])
def test_unknown_variant_or_time_control(server, body, detail):
    r = server.browser().post("/api/matches", json=body)
    assert r.status_code == 400 and r.json() == {"detail": detail}


@pytest.mark.parametrize("body", [{"creator_side": 2}, {"creator_side": "first"}, {"variant": None},
                                  {"fen": "x" * 2000}, {"invite": 12}])
def test_malformed_match_requests_are_refused_clearly(server, body):
    b = server.browser()
    r = b.post("/api/matches", json=body)
    assert r.status_code in (400, 422) and isinstance(r.json()["detail"], str), r.text  # one clear sentence
    assert ok(b.get("/api/games"))["invitations"] == []


def test_invitation_by_account_name(server):
    carol, dave, guest, creator = (server.browser() for _ in range(4))
    register(carol, "carol")
    register(dave, "dave")
    created = ok(creator.post("/api/matches", json={"invite": "carol", "time_control": "rapid-10+5"}))
    gid, token = created["game_id"], token_of(created["invite_url"])
    listed = ok(carol.get("/api/games"))["invitations"]
    assert [g["id"] for g in listed] == [gid] and listed[0]["status"] == "waiting"
    assert listed[0]["time_control"] == "Rapid 10+5"
    assert ok(dave.get("/api/games"))["invitations"] == []
    # only carol may accept: others are refused and nothing changes
    for b in (dave, guest):
        r = b.post(f"/api/invitations/{token}/accept")
        assert r.status_code == 403 and r.json()["detail"] == "this invitation is for another player"
        assert b.post(f"/api/invitations/{token}/decline").status_code == 403
        assert b.post(f"/api/games/{gid}/accept").status_code == 404
    assert http_state(creator, gid)["status"] == "waiting"
    assert ok(carol.post(f"/api/games/{gid}/accept")) == {"game_id": gid}
    state = http_state(carol, gid)
    assert state["status"] == "active" and state["you"] == 1 and state["players"][1]["name"] == "carol"
    assert [g["id"] for g in ok(carol.get("/api/games"))["ongoing"]] == [gid]
    assert ok(carol.get("/api/games"))["invitations"] == []


def test_invitation_by_name_must_name_an_account(server):
    b = server.browser()
    register(b, "erik")
    guest = server.browser()
    ok(guest.post("/api/matches", json={}))
    guest_name = ok(guest.get("/api/me"))["name"]
    for name, status in (("nobody_here", 404), (guest_name, 404), ("erik", 400)):
        r = b.post("/api/matches", json={"invite": name})
        assert r.status_code == status, name
    assert ok(b.get("/api/games"))["invitations"] == []


def test_addressed_invitation_declined_by_the_invitee(server):
    creator, gina = server.browser(), server.browser()
    register(gina, "gina")
    gid = ok(creator.post("/api/matches", json={"invite": "gina"}))["game_id"]
    assert ok(gina.post(f"/api/games/{gid}/decline")) == {"ok": True}
    assert http_state(creator, gid)["status"] == "declined"
    assert gina.post(f"/api/games/{gid}/accept").status_code == 409
    assert [g["status"] for g in ok(creator.get("/api/games"))["finished"]] == ["declined"]


def test_decline_by_token_then_accept_is_refused(server):
    m = new_match(server, accept=False)
    assert ok(m.opponent.post(f"/api/invitations/{m.token}/decline")) == {"ok": True}
    assert ok(m.opponent.get(f"/api/invitations/{m.token}"))["status"] == "declined"
    r = m.opponent.post(f"/api/invitations/{m.token}/accept")
    assert r.status_code == 409 and "no longer open" in r.json()["detail"]
    assert m.opponent.post(f"/api/invitations/{m.token}/decline").status_code == 409
    state = http_state(m.creator, m.id)
    assert state["status"] == "declined" and state["players"][1]["name"] is None


def test_accepting_twice_or_your_own_invitation_is_refused(server):
    m = new_match(server, accept=False)
    r = m.creator.post(f"/api/invitations/{m.token}/accept")
    assert r.status_code == 400 and "your own invitation" in r.json()["detail"]
    assert http_state(m.creator, m.id)["status"] == "waiting"
    ok(m.opponent.post(f"/api/invitations/{m.token}/accept"))
    for b in (m.opponent, server.browser()):
        r = b.post(f"/api/invitations/{m.token}/accept")
        assert r.status_code == 409 and "no longer open" in r.json()["detail"]
    state = http_state(m.creator, m.id)
    assert state["status"] == "active" and state["version"] == 1


def test_invite_tokens_are_long_random_and_unknown_tokens_404(server):
    b = server.browser()
    created = [ok(b.post("/api/matches", json={})) for _ in range(20)]
    tokens = [token_of(c["invite_url"]) for c in created]
    assert len(set(tokens)) == len(tokens)
    for token, c in zip(tokens, created):
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,}", token)  # >= 24 random bytes, URL-safe
        assert c["game_id"] not in token
    assert len(set("".join(tokens))) > 40  # drawn from the whole alphabet, not a counter
    other = server.browser()
    for bad in (tokens[0][:-1], tokens[0] + "x", created[0]["game_id"], "x"):
        assert other.get(f"/api/invitations/{bad}").status_code == 404
        assert other.post(f"/api/invitations/{bad}/accept").status_code == 404
    assert other.post(f"/api/games/{created[0]['game_id']}/accept").status_code == 404  # not addressed to it


def test_the_invitee_of_an_open_link_does_not_see_it_before_accepting(server):
    m = new_match(server, accept=False)
    assert ok(m.opponent.get("/api/games"))["invitations"] == []
    listed = ok(m.creator.get("/api/games"))["invitations"]
    assert listed[0]["invite_url"] == f"/invite/{m.token}" and listed[0]["opponent"] is None


def test_unknown_game(server):
    b = server.browser()
    assert b.get("/api/games/nope").status_code == 404
    assert b.get("/api/games/nope/record").status_code == 404


@pytest.mark.parametrize("variant,pieces,side,termination", [
    ("chess", {"g6": "K", "g7": "Q", "h8": "k"}, "b", "checkmate"),
    ("chess", {"g6": "K", "f7": "Q", "h8": "k"}, "b", "stalemate"),
    ("chess", {"d2": "K", "e5": "k"}, "w", "insufficient material"),
    ("super16", {"i1": "K", "a16": "R", "a15": "R", "p16": "k"}, "b", "checkmate"),
])
@pytest.mark.parametrize("against", ["person", "computer"])
def test_a_start_position_that_is_already_over_is_refused(server, variant, pieces, side, termination, against):
    """Issue 18, item 10: a game from a checkmate, stalemate or dead position could never be played."""
    browser = server.browser()
    games_before = len(server.store.games_of(ok(browser.get("/api/me"))["id"] or 0))
    path = "/api/matches" if against == "person" else "/api/matches/computer"
    r = browser.post(path, json={"variant": variant, "fen": make_fen(variant, pieces, side)})
    assert r.status_code == 400 and f"already over ({termination})" in r.json()["detail"]
    assert len(server.store.games_of(ok(browser.get("/api/me"))["id"] or 0)) == games_before == 0
