"""Ratings (issue 22): Glicko-2 per account, rating variant and speed class, applied in the
transaction that saves a rated game's end, exactly once (also across a restart at that moment);
what the players see at the end, profiles and leaderboards. The Glicko-2 arithmetic itself is
test_glicko2.py (the paper's worked example)."""
from __future__ import annotations

import pytest
import sqlalchemy.exc
from sqlalchemy import text

from superchess.server import store as store_module
from superchess.server.clock import SPEEDS, TIME_CONTROLS
from superchess.server.glicko2 import Rating, Result, rate
from superchess.server.ratings import Pool
from superchess.server.store import RatingRow

from .util import http_state, ok, rated_game, recv, recv_state, register



def test_speed_classes_follow_the_estimated_length_of_the_time_control():
    """initial + 40 x increment seconds: bullet < 180 <= blitz < 480 <= rapid < 1500 <= classical."""
    assert SPEEDS == ("bullet", "blitz", "rapid", "classical", "daily")
    assert {tc: TIME_CONTROLS[tc].speed for tc in TIME_CONTROLS} == {
        "bullet-1+0": "bullet", "blitz-3+2": "blitz", "blitz-5+0": "blitz", "rapid-10+5": "rapid",
        "rapid-15+10": "rapid", "classical-30+30": "classical", "daily": "daily"}


def ratings_table(server) -> list:
    with server.store.engine.connect() as conn:
        return conn.execute(text("SELECT p.name, r.variant, r.speed, r.rating, r.deviation, r.games FROM ratings r "
                                 "JOIN players p ON p.id = r.player_id ORDER BY p.name")).all()


def resign(browser, game_id: str) -> dict:
    with browser.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        ws.send_json({"type": "resign"})
        return recv_state(ws)


def test_a_rated_game_moves_both_ratings_by_glicko2_and_both_players_see_the_change(server):
    game, p1, p2 = rated_game(server)
    before = http_state(p1, game)["ratings"]
    assert before == [{"rating": 1500, "provisional": True, "change": None}] * 2
    with p2.websocket_connect(f"/ws/games/{game}") as w2:
        recv_state(w2)
        resign(p1, game)
        seen = recv_state(w2)["state"]["ratings"]  # the end reaches the opponent with the change
    winner, loser = rate(Rating(), [Result(Rating(), 1)]), rate(Rating(), [Result(Rating(), 0)])
    assert seen == http_state(p1, game)["ratings"] == [
        {"rating": round(loser.rating), "provisional": True,
         "change": {"before": 1500, "after": round(loser.rating), "diff": round(loser.rating) - 1500}},
        {"rating": round(winner.rating), "provisional": True,
         "change": {"before": 1500, "after": round(winner.rating), "diff": round(winner.rating) - 1500}}]
    rows = ratings_table(server)
    assert [(n, v, s, g) for n, v, s, _, _, g in rows] == [("alice", "chess", "blitz", 1), ("bob", "chess", "blitz", 1)]
    assert rows[0][3] == pytest.approx(loser.rating) and rows[1][4] == pytest.approx(winner.deviation)


def test_the_next_game_starts_from_the_new_ratings_and_a_rating_becomes_established(server, clock):
    """Provisional while the deviation is above 110: after enough games it is not."""
    game, p1, p2 = rated_game(server)
    after = resign(p1, game)["state"]["ratings"]
    for n in range(13):
        clock.advance(60_000)  # the history is in time order (games ending in one millisecond have none)
        seek = ok(p1.post("/api/seeks", json={"variant": "chess", "time_control": "blitz-3+2", "rated": True}))
        game = ok(p2.post(f"/api/seeks/{seek['id']}/accept"))["game_id"]
        state = http_state(p1, game)
        assert [r["rating"] for r in state["ratings"]] == [r["change"]["after"] for r in after]
        assert all(r["change"] is None for r in state["ratings"])
        after = resign((p1, p2)[n % 2], game)["state"]["ratings"]
    profile = ok(p1.get("/api/players/alice"))
    (chess,) = profile["ratings"]
    assert chess["games"] == 14 and chess["provisional"] is False and chess["deviation"] <= 110
    assert after[0] == {"rating": chess["rating"], "provisional": False, "change": after[0]["change"]}
    assert len(chess["history"]) == 14 and chess["history"][-1][1] == chess["rating"]


def test_games_that_change_no_rating(server, threads):
    """Aborted rated games, casual games, guests and the computer: nothing rated."""
    game, p1, _ = rated_game(server)
    with p1.websocket_connect(f"/ws/games/{game}") as ws:
        recv_state(ws)
        ws.send_json({"type": "abort"})
        state = recv_state(ws)["state"]
    assert state["status"] == "aborted" and state["ratings"][0]["change"] is None
    casual, c1, _ = rated_game(server, ("carol", "dave"), rated=False)
    assert http_state(c1, casual)["ratings"] is None
    resign(c1, casual)
    human = server.browser()
    register(human, "erin")
    computer = ok(human.post("/api/matches/computer", json={"variant": "chess", "level": 1}))["game_id"]
    assert http_state(human, computer)["rated"] is False
    resign(human, computer)
    assert ratings_table(server) == []
    with server.store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rating_changes")).scalar() == 0


def test_private_games_are_rated_in_a_pool_of_their_own(server):
    game, p1, p2 = rated_game(server, variant="super16", time_control="rapid-10+5", mode="private")
    for browser in (p1, p2):
        with browser.websocket_connect(f"/ws/games/{game}") as ws:
            recv_state(ws)
            ws.send_json({"type": "submit_roster", "roster": {}})
            recv_state(ws)
    resign(p1, game)
    assert {(v, s) for _, v, s, *_ in ratings_table(server)} == {("super16-private", "rapid")}
    assert ok(p1.get("/api/leaderboard/super16-private/rapid"))["players"] == []  # provisional yet


def test_a_game_is_rated_in_the_transaction_of_its_end_once_also_across_a_restart(server, restart, monkeypatch):
    game, p1, p2 = rated_game(server)
    cookies = [dict(p1.cookies), dict(p2.cookies)]

    def crash(conn, row, pool):  # the server dies inside the transaction that saves the end
        raise sqlalchemy.exc.OperationalError("rate", {}, Exception("power cut"))

    monkeypatch.setattr(store_module, "_rate", crash)
    with p1.websocket_connect(f"/ws/games/{game}") as ws:
        recv_state(ws)
        ws.send_json({"type": "resign"})
        assert "could not save" in recv(ws)["message"]
    monkeypatch.undo()
    assert server.store.game(game).status == "active" and ratings_table(server) == []  # neither end nor rating
    server = restart(server)
    p1, p2 = (server.browser(cookies=c) for c in cookies)
    assert http_state(p1, game)["status"] == "active"
    resign(p1, game)
    rated = ratings_table(server)
    assert [g for *_, g in rated] == [1, 1]
    server = restart(server)  # the finished game loads with its change, and is never rated again
    p1 = server.browser(cookies=cookies[0])
    state = http_state(p1, game)
    assert state["status"] == "finished" and state["ratings"][1]["change"]["diff"] > 0
    row = server.store.game(game)
    assert server.store.save_games([(row, None, Pool("chess", "blitz"))]).changes == {}  # saved again: not rated again
    assert ratings_table(server) == rated


def test_profiles_list_ratings_and_finished_games_filtered_by_variant(server, clock):
    game, p1, p2 = rated_game(server)
    resign(p2, game)
    clock.advance(1000)
    casual = ok(p1.post("/api/seeks", json={"variant": "super16", "time_control": "daily"}))
    other = ok(p2.post(f"/api/seeks/{casual['id']}/accept"))["game_id"]
    resign(p1, other)
    visitor = server.browser()
    profile = ok(visitor.get("/api/players/ALICE"))  # names in any case
    assert profile["name"] == "alice" and profile["account"] is True
    assert [(r["variant"], r["speed"], r["games"]) for r in profile["ratings"]] == [("chess", "blitz", 1)]
    games = profile["games"]
    assert [(g["id"], g["variant"], g["opponent"], g["outcome"], g["rated"]) for g in games] == [
        (other, "super16", "bob", "loss", False), (game, "chess", "bob", "win", True)]
    assert games[1]["rating_change"]["diff"] > 0 and games[0]["rating_change"] is None
    assert games[0]["time_control"] == {"id": "daily", "name": "Daily"} and games[0]["mode"] == "default"
    assert [g["id"] for g in ok(visitor.get("/api/players/alice?variant=chess"))["games"]] == [game]
    assert visitor.get("/api/players/alice?variant=nochess").status_code == 400
    assert visitor.get("/api/players/nobody").status_code == 404


def test_the_leaderboard_lists_the_top_fifty_established_ratings(server):
    players = [server.store.add_player(f"player{n}", "(a password hash)", 0).id for n in range(53)]
    with server.store.session() as s:
        for n, pid in enumerate(players):
            s.add(RatingRow(player_id=pid, variant="chess", speed="rapid", rating=1000 + 10 * n,
                            deviation=200 if n == 52 else 100, volatility=0.06, games=20, updated_at=0))
        s.commit()
    board = ok(server.browser().get("/api/leaderboard/chess/rapid"))
    ranks = board["players"]
    assert len(ranks) == 50 and ranks[0]["rank"] == 1 and ranks[0]["rating"] == 1510  # 1520: provisional
    assert [r["rating"] for r in ranks] == sorted((r["rating"] for r in ranks), reverse=True)
    for path in ("/api/leaderboard/chess/hyper", "/api/leaderboard/nochess/blitz", "/api/leaderboard/chess-private/blitz"):
        r = server.browser().get(path)
        assert r.status_code == 404 and "no rating pool" in r.json()["detail"]
    assert ok(server.browser().get("/api/leaderboard/super16-private/daily"))["players"] == []
