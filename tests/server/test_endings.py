"""Game endings through the server: checkmate, resignation, draws (agreement, move rule, stalemate,
repetition), abort; the reason text, the termination and the downloadable record."""
from __future__ import annotations

import pytest

from superchess.rules.game.record import Game

from ..rules.helpers import make_fen
from .util import act, http_state, move, new_match, recv_error, recv_state, sync

SUPER16_MATE = make_fen("super16", {"i1": "K", "a1": "R", "b1": "R", "p16": "k", "h10": "p"})
CHESS_BEFORE_FOOLS_MATE = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq e6 0 2"


class Table:
    """A started game with both players (and a watcher) connected."""

    def __init__(self, server, **body) -> None:
        self.m = new_match(server, **body)
        self.server = server
        path = f"/ws/games/{self.m.id}"
        self._ctx = [self.m.p1.websocket_connect(path), self.m.p2.websocket_connect(path),
                     server.browser().websocket_connect(path)]
        self.w1, self.w2, self.watcher = (c.__enter__() for c in self._ctx)
        self.ws = (self.w1, self.w2)
        self.last = [recv_state(w) for w in (*self.ws, self.watcher)]

    def others(self, ws):
        return [w for w in (*self.ws, self.watcher) if w is not ws]

    def play(self, *texts: str) -> list[dict]:
        for text in texts:
            mover = self.ws[self.last[0]["state"]["turn"]]
            msgs = move(mover, self.others(mover), text)
            self.last = [msgs[[mover, *self.others(mover)].index(w)] for w in (*self.ws, self.watcher)]
        return self.last

    def act(self, side: int, payload: dict) -> list[dict]:
        ws = self.ws[side]
        msgs = act(ws, self.others(ws), payload)
        self.last = [msgs[[ws, *self.others(ws)].index(w)] for w in (*self.ws, self.watcher)]
        return self.last

    def close(self) -> None:
        for c in reversed(self._ctx):
            c.__exit__(None, None, None)


@pytest.fixture
def table(server):
    tables = []

    def make(**body) -> Table:
        t = Table(server, **body)
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()


def assert_over(t: Table, status: str, result: str, termination: str, reason: str) -> dict:
    for msg in t.last:
        s = msg["state"]
        assert (s["status"], s["result"], s["termination"], s["reason"]) == (status, result, termination, reason)
        assert s["legal"] == {} and not s["can_abort"] and not s["can_claim_draw"] and s["draw_offer"] is None
        assert s["clock"]["running"] is None and s["clock"]["deadline"] is None
    state = t.last[0]["state"]
    # nothing more can be done, by anyone
    for ws in t.ws:
        for payload in ({"type": "move", "move": "i1i2"}, {"type": "resign"}, {"type": "offer_draw"},
                        {"type": "abort"}, {"type": "claim_draw"}):
            ws.send_json(payload)
            assert recv_error(ws) == "the game is not in progress"
        assert sync(ws)["version"] == t.last[0]["version"]
    # the database and a fresh HTTP view agree
    row = t.server.store.game(t.m.id)
    assert (row.status, row.result, row.termination) == (status, result, termination)
    assert t.server.store.moves(t.m.id) == state["moves"]
    assert http_state(t.m.p2, t.m.id)["reason"] == reason
    # the downloaded record re-imports to the same game
    r = t.m.p1.get(f"/api/games/{t.m.id}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert r.headers["content-disposition"] == f'attachment; filename="superchess-{t.m.id}.pgn"'
    game = Game.parse(r.text)
    assert [mv.text for mv in game.board.move_stack] == state["moves"]
    assert game.result() == result and game.board.fen() == state["fen"]
    assert game.outcome is not None and game.outcome.termination.value == termination
    names = [p["name"] for p in state["players"]]
    assert game.headers["Player1"] == names[0] and game.headers["Player2"] == names[1]
    assert game.headers["TimeControl"] == state["time_control"]["name"]
    assert f'[Result "{result}"]' in r.text
    return state


def test_checkmate_super16(table):
    t = table(fen=SUPER16_MATE)
    t.play("a1a15", "h10h9")
    assert t.last[0]["state"]["status"] == "active"
    msgs = t.play("b1b16")
    assert msgs[0]["event"] == {"kind": "move", "move": "b1b16", "side": 0}
    assert msgs[1]["state"]["check"] == "p16"
    state = assert_over(t, "finished", "1-0", "checkmate", "Checkmate — Player 1 wins")
    assert state["moves"] == ["a1a15", "h10h9", "b1b16"]


def test_checkmate_chess(table):
    t = table(variant="chess", fen=CHESS_BEFORE_FOOLS_MATE)
    t.play("g2g4", "d8h4")
    assert t.last[0]["state"]["check"] == "e1"
    assert_over(t, "finished", "0-1", "checkmate", "Checkmate — Player 2 wins")


@pytest.mark.parametrize("resigner, result, reason", [
    (1, "1-0", "Player 2 resigned — Player 1 wins"),  # off turn
    (0, "0-1", "Player 1 resigned — Player 2 wins"),  # on turn
])
def test_resignation(table, resigner, result, reason):
    t = table()
    t.play("h2h4", "h15h13", "g2g4")
    msgs = t.act(resigner, {"type": "resign"})
    assert all(m["event"] == {"kind": "end", "termination": "resignation", "result": result} for m in msgs)
    assert_over(t, "finished", result, "resignation", reason)


def test_draw_offer_declined_then_offered_again_and_accepted(table):
    t = table()
    t.play("h2h4")
    msgs = t.act(0, {"type": "offer_draw"})  # offered off turn
    assert all(m["event"] == {"kind": "draw_offer", "side": 0} and m["state"]["draw_offer"] == 0 for m in msgs)
    v = msgs[0]["version"]
    t.w1.send_json({"type": "offer_draw"})
    assert recv_error(t.w1) == "you have already offered a draw"
    t.w1.send_json({"type": "accept_draw"})
    assert recv_error(t.w1) == "there is no draw offer to accept"  # not your own
    assert sync(t.w2)["version"] == v
    msgs = t.act(1, {"type": "decline_draw"})
    assert all(m["event"] == {"kind": "draw_declined", "side": 1} and m["state"]["draw_offer"] is None
               for m in msgs)
    assert msgs[0]["version"] == v + 1 and msgs[0]["state"]["status"] == "active"
    t.act(1, {"type": "offer_draw"})
    msgs = t.act(0, {"type": "accept_draw"})
    assert msgs[0]["event"] == {"kind": "end", "termination": "agreement", "result": "1/2-1/2"}
    assert_over(t, "finished", "1/2-1/2", "agreement", "Draw by agreement")


def test_crossing_draw_offers_make_a_draw(table):
    t = table()
    t.act(1, {"type": "offer_draw"})
    t.act(0, {"type": "offer_draw"})
    assert_over(t, "finished", "1/2-1/2", "agreement", "Draw by agreement")


def test_a_move_by_the_opponent_declines_the_offer(table):
    t = table()
    t.play("h2h4")
    t.act(0, {"type": "offer_draw"})
    msgs = t.play("h15h13")
    assert msgs[0]["state"]["draw_offer"] is None
    t.w1.send_json({"type": "accept_draw"})
    assert recv_error(t.w1) == "there is no draw offer to accept"


def test_claim_draw_under_the_move_rule(table):
    fen = make_fen("super16", {"i1": "K", "a1": "R", "p16": "k", "h10": "p"}, halfmove=200, fullmove=120)
    t = table(fen=fen)
    assert t.last[0]["state"]["can_claim_draw"] is True
    assert t.last[1]["state"]["can_claim_draw"] is False and t.last[2]["state"]["can_claim_draw"] is False
    t.w2.send_json({"type": "claim_draw"})
    assert recv_error(t.w2) == "a draw can be claimed only on your own turn"
    msgs = t.act(0, {"type": "claim_draw"})
    assert msgs[0]["event"] == {"kind": "end", "termination": "move rule", "result": "1/2-1/2"}
    assert_over(t, "finished", "1/2-1/2", "move rule", "Draw — 100-move rule (claimed)")
    assert t.server.store.game(t.m.id).claimed == 1
    record = t.m.p1.get(f"/api/games/{t.m.id}/record").text
    assert '[Termination "move rule claim"]' in record


def test_no_claim_at_150_half_moves(table):
    fen = make_fen("super16", {"i1": "K", "a1": "R", "p16": "k", "h10": "p"}, halfmove=150, fullmove=120)
    t = table(fen=fen)
    assert t.last[0]["state"]["can_claim_draw"] is False
    t.w1.send_json({"type": "claim_draw"})
    assert recv_error(t.w1) == "no draw can be claimed in this position"
    s = sync(t.w1)
    assert s["version"] == t.last[0]["version"] and s["state"]["status"] == "active"


def test_the_move_rule_draw_is_automatic_at_300_half_moves(table):
    fen = make_fen("super16", {"i1": "K", "a1": "R", "p16": "k", "h10": "p"}, halfmove=299, fullmove=200)
    t = table(fen=fen)
    t.play("a1a2")
    assert_over(t, "finished", "1/2-1/2", "move rule", "Draw — 100-move rule")


@pytest.mark.parametrize("variant, fen, last", [
    ("super16", make_fen("super16", {"c14": "K", "b1": "Q", "a16": "k"}), "b1b14"),
    ("chess", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "c1c7"),
])
def test_stalemate(table, variant, fen, last):
    t = table(variant=variant, fen=fen)
    t.play(last)
    assert_over(t, "finished", "1/2-1/2", "stalemate", "Stalemate — draw")


def test_threefold_repetition_is_automatic_in_super16(table):
    t = table()
    t.play("b1c3", "b16c14", "c3b1", "c14b16", "b1c3", "b16c14", "c3b1")
    assert t.last[1]["state"]["status"] == "active"
    t.play("c14b16")
    assert_over(t, "finished", "1/2-1/2", "repetition", "Draw by repetition")


def test_threefold_repetition_is_claimed_in_chess(table):
    t = table(variant="chess")
    t.play("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1")
    assert t.last[1]["state"]["can_claim_draw"] is True and t.last[0]["state"]["can_claim_draw"] is False
    t.act(1, {"type": "claim_draw"})
    assert_over(t, "finished", "1/2-1/2", "repetition", "Draw by repetition (claimed)")


@pytest.mark.parametrize("aborter, moves", [(1, []), (0, []), (0, ["h2h4"]), (1, ["h2h4"])])
def test_abort_before_both_sides_moved(table, aborter, moves):
    t = table()
    t.play(*moves)
    assert all(m["state"]["can_abort"] for m in t.last[:2]) and not t.last[2]["state"]["can_abort"]
    msgs = t.act(aborter, {"type": "abort"})
    assert msgs[0]["event"] == {"kind": "end", "termination": "aborted", "result": "*"}
    assert_over(t, "aborted", "*", "aborted", "Game aborted")


def test_abort_is_refused_once_both_sides_moved(table):
    t = table()
    t.play("h2h4", "h15h13")
    assert not any(m["state"]["can_abort"] for m in t.last)
    for ws in t.ws:
        ws.send_json({"type": "abort"})
        assert recv_error(ws) == "the game can be aborted only before both sides have moved"
        assert sync(ws)["state"]["status"] == "active"


def test_finished_games_move_to_the_finished_list(table):
    t = table()
    t.act(0, {"type": "resign"})
    for b, side in ((t.m.p1, 0), (t.m.p2, 1)):
        games = b.get("/api/games").json()
        assert games["ongoing"] == [] and len(games["finished"]) == 1
        summary = games["finished"][0]
        assert (summary["status"], summary["result"], summary["termination"]) == ("finished", "0-1", "resignation")
        assert summary["your_side"] == side and summary["your_turn"] is False


def test_an_offer_stands_when_the_offerer_moves(table):
    t = table()
    t.act(0, {"type": "offer_draw"})  # offered on the own turn, then the move is made
    msgs = t.play("h2h4")
    assert msgs[0]["state"]["draw_offer"] == 0
    msgs = t.act(1, {"type": "accept_draw"})
    assert msgs[0]["event"]["termination"] == "agreement"
