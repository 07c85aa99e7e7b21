"""The lobby (issue 22): open seeks over HTTP and the lobby's websocket, their lifetimes (the creator
leaving the site, Daily expiry, restarts), acceptance (exactly one game, both players taken to it)
and quick pairing; every refusal a clear 4xx that changes nothing."""
from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text

from superchess.server import lobby as lobby_module
from superchess.server.lobby import MAX_OPEN_SEEKS, SeekRefused
from superchess.server.store import DAY_MS, RatingRow, waiting_game

from .util import http_state, ok, recv, register

SEEK = {"variant": "chess", "time_control": "blitz-3+2"}


def tables(server) -> dict:
    """The rows a refused request must leave alone."""
    with server.store.engine.connect() as conn:
        return {t: conn.execute(text(f"SELECT * FROM {t} ORDER BY 1")).all()
                for t in ("players", "sessions", "games", "seeks", "ratings")}


def account(server, name: str):
    b = server.browser()
    register(b, name)
    return b


def seek_ids(browser) -> list[str]:
    return [x["id"] for x in ok(browser.get("/api/seeks"))["seeks"]]


@pytest.mark.postgresql
def test_a_seek_appears_on_every_lobby_and_accepting_it_starts_the_game_for_both(server):
    alice, bob, carol = account(server, "alice"), account(server, "bob"), server.browser()
    with bob.websocket_connect("/ws/lobby") as watch_bob, carol.websocket_connect("/ws/lobby") as watch_carol, \
            alice.websocket_connect("/ws/lobby") as watch_alice:
        assert recv(watch_bob) == recv(watch_carol) == recv(watch_alice) == {"type": "seeks", "seeks": []}
        seek = ok(alice.post("/api/seeks", json={**SEEK, "creator_side": 1, "rated": True}))
        assert seek["creator"] == {"name": "alice", "account": True, "rating": {"rating": 1500, "provisional": True}}
        assert (seek["variant"], seek["time_control"], seek["speed"], seek["mode"], seek["creator_side"],
                seek["rated"], seek["rating_range"], seek["expires_at"]) == \
            ("chess", {"id": "blitz-3+2", "name": "Blitz 3+2"}, "blitz", "default", 1, True, None, None)
        for w in (watch_bob, watch_carol, watch_alice):  # each sees it arrive, without asking
            assert recv(w) == {"type": "seek_added", "seek": seek}
        assert ok(carol.get("/api/seeks"))["seeks"] == [seek]
        game = ok(bob.post(f"/api/seeks/{seek['id']}/accept"))
        for w in (watch_bob, watch_carol):
            assert recv(w) == {"type": "seek_removed", "ids": [seek["id"]], "reason": "accepted"}
        assert recv(watch_alice)["type"] == "seek_removed"
        assert recv(watch_alice) == {"type": "game_started", "game_id": game["game_id"], "seek_id": seek["id"]}
    state = http_state(alice, game["game_id"])
    assert state["status"] == "active" and state["rated"] is True and state["you"] == 1
    assert state["players"] == [{"name": "bob", "side": 0}, {"name": "alice", "side": 1}]
    assert http_state(bob, game["game_id"])["you"] == 0 and seek_ids(carol) == []


def test_a_seek_takes_every_match_option(server):
    alice = account(server, "alice")
    roster = {"N": {"mode": "jump", "vectors": [[0, 3]]}}
    symmetric = ok(alice.post("/api/seeks", json={"variant": "super16", "time_control": "daily", "mode": "symmetric",
                                                   "roster": roster, "creator_side": 0}))
    chosen = ok(alice.post("/api/seeks", json={"variant": "superchess", "time_control": "rapid-10+5",
                                                "setup_seed": "seven"}))
    assert symmetric["mode"] == "symmetric" and symmetric["expires_at"] == server.clock() + 14 * DAY_MS
    game = ok(server.browser().post(f"/api/seeks/{symmetric['id']}/accept"))["game_id"]
    state = http_state(alice, game)
    assert state["mode"] == "symmetric" and state["rosters"] == [roster, roster] and state["rated"] is False
    game = ok(server.browser().post(f"/api/seeks/{chosen['id']}/accept"))["game_id"]
    assert http_state(alice, game)["fen"] == chosen["fen"] and chosen["fen"]


@pytest.mark.parametrize("body, status, words", [
    ({"variant": "nochess"}, 400, "unknown variant"),
    ({"time_control": "blitz-7+7"}, 400, "unknown time control"),
    ({"mode": "secret"}, 400, "unknown mode"),
    ({"variant": "chess", "mode": "private"}, 400, "cannot be reprogrammed"),
    ({"invite": "bob"}, 400, "open to anyone"),
    ({"rating_range": [1700, 1300]}, 400, "excludes everyone"),
    ({"rating_range": [1800, 2200]}, 400, "excludes your own rating (1500)"),
    ({"rating_range": [1000, 9000]}, 400, "rating_range"),
], ids=["variant", "time-control", "mode", "mode-of-variant", "invite", "reversed-range", "range-without-me",
        "range-bound"])
def test_bad_seeks_are_refused_clearly_and_change_nothing(server, body, status, words):
    alice = account(server, "alice")
    before = tables(server)
    r = alice.post("/api/seeks", json={**SEEK, **body})
    assert r.status_code == status and words in r.json()["detail"], r.text
    assert tables(server) == before


def test_a_guest_may_seek_casual_games_only_and_is_made_only_for_a_valid_seek(server):
    visitor = server.browser()
    before = tables(server)
    for body, words in (({"rated": True}, "rated games are between accounts"),
                        ({"rating_range": [1400, 1600]}, "guests have no rating"),
                        ({"variant": "nochess"}, "unknown variant")):
        r = visitor.post("/api/seeks", json={**SEEK, **body})
        assert r.status_code in (400, 403) and words in r.json()["detail"]
    assert tables(server) == before and ok(visitor.get("/api/me"))["id"] is None  # no guest was made
    seek = ok(visitor.post("/api/seeks", json=SEEK))
    assert seek["rated"] is False and seek["creator"]["account"] is False and seek["creator"]["rating"] is None
    assert seek["creator"]["name"] == ok(visitor.get("/api/me"))["name"]


def test_acceptances_that_cannot_be_are_refused_and_change_nothing(server):
    alice, bob = account(server, "alice"), account(server, "bob")
    rated = ok(alice.post("/api/seeks", json={**SEEK, "rated": True}))
    ranged = ok(alice.post("/api/seeks", json={**SEEK, "rating_range": [1450, 1550]}))
    with server.store.session() as s:  # bob is far above the range
        s.add(RatingRow(player_id=ok(bob.get("/api/me"))["id"], variant="chess", speed="blitz", rating=1800,
                        deviation=80, volatility=0.06, games=30, updated_at=0))
        s.commit()
    visitor = server.browser()
    before = tables(server)
    for browser, seek, status, words in (
            (alice, rated, 400, "your own seek"),
            (visitor, rated, 403, "rated games are between accounts"),
            (visitor, ranged, 403, "guests have no rating"),
            (bob, ranged, 403, "for ratings 1450-1550; yours is 1800"),
            (bob, {"id": "no-such-seek"}, 404, "gone")):
        r = browser.post(f"/api/seeks/{seek['id']}/accept")
        assert r.status_code == status and words in r.json()["detail"], r.text
    assert tables(server) == before and ok(visitor.get("/api/me"))["id"] is None


def test_two_tabs_of_one_player_never_pair(server):
    alice = account(server, "alice")
    other_tab = server.browser(cookies=dict(alice.cookies))
    seek = ok(alice.post("/api/seeks", json=SEEK))
    r = other_tab.post(f"/api/seeks/{seek['id']}/accept")
    assert r.status_code == 400 and "your own seek" in r.json()["detail"]
    pool = ok(alice.post("/api/pools/chess-blitz-3+2/join"))
    assert ok(other_tab.post("/api/pools/chess-blitz-3+2/join")) == pool  # the same seek, not a game
    assert sorted(seek_ids(alice)) == sorted([seek["id"], pool["seek"]["id"]])


@pytest.mark.postgresql
def test_a_seek_accepted_twice_at_once_makes_exactly_one_game(server):
    alice, bob, carol = account(server, "alice"), account(server, "bob"), account(server, "carol")
    seek_id = ok(alice.post("/api/seeks", json=SEEK))["id"]
    lobby = server.app.state.services.lobby
    seek = lobby.refuse_acceptor(seek_id, None)
    takers = [ok(b.get("/api/me"))["id"] for b in (bob, carol)]

    async def both():
        import asyncio
        return await asyncio.gather(*(lobby.accept(seek, t) for t in takers), return_exceptions=True)

    results = server.call(both)
    games = [r for r in results if isinstance(r, str)]
    assert len(games) == 1 and isinstance(next(r for r in results if not isinstance(r, str)), SeekRefused)
    with server.store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 1
    # and over HTTP, from two threads at once
    seek_id = ok(alice.post("/api/seeks", json=SEEK))["id"]
    answers = []
    threads = [threading.Thread(target=lambda b=b: answers.append(b.post(f"/api/seeks/{seek_id}/accept")))
               for b in (bob, carol)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [200, 404]
    with server.store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 2


def test_at_most_five_open_seeks_and_a_flood_of_creations_is_throttled(server, clock):
    alice = account(server, "alice")
    ids = [ok(alice.post("/api/seeks", json=SEEK))["id"] for _ in range(MAX_OPEN_SEEKS)]
    before = tables(server)
    r = alice.post("/api/seeks", json=SEEK)
    assert r.status_code == 409 and "5 open seeks" in r.json()["detail"] and tables(server) == before
    for seek_id in ids:
        assert ok(alice.delete(f"/api/seeks/{seek_id}")) == {"ok": True}
    created = MAX_OPEN_SEEKS + 1
    while created < lobby_module.SEEKS_PER_CLIENT[0]:
        ok(alice.delete(f"/api/seeks/{ok(alice.post('/api/seeks', json=SEEK))['id']}"))
        created += 1
    before = tables(server)
    r = alice.post("/api/seeks", json=SEEK)
    assert r.status_code == 429 and "too many seeks created" in r.json()["detail"] and r.headers["Retry-After"]
    assert tables(server) == before
    clock.advance(lobby_module.SEEKS_PER_CLIENT[1])
    ok(alice.post("/api/seeks", json=SEEK))


@pytest.mark.postgresql
def test_cancelling_a_seek(server):
    alice, bob = account(server, "alice"), account(server, "bob")
    seek = ok(alice.post("/api/seeks", json=SEEK))
    with bob.websocket_connect("/ws/lobby") as watch:
        recv(watch)
        for browser, status in ((bob, 403), (server.browser(), 403)):
            assert browser.delete(f"/api/seeks/{seek['id']}").status_code == status
        assert ok(alice.delete(f"/api/seeks/{seek['id']}")) == {"ok": True}
        assert recv(watch) == {"type": "seek_removed", "ids": [seek["id"]], "reason": "cancelled"}
    assert alice.delete(f"/api/seeks/{seek['id']}").status_code == 404
    assert bob.post(f"/api/seeks/{seek['id']}/accept").status_code == 404


@pytest.mark.postgresql  # over PostgreSQL: the shared presence (cluster.py)
def test_a_real_time_seek_ends_when_its_creator_leaves_the_site_not_when_changing_pages(server):
    lobby = server.app.state.services.lobby
    lobby.grace_s = 1.0
    alice, bob = account(server, "alice"), account(server, "bob")
    with bob.websocket_connect("/ws/lobby") as watch:
        recv(watch)
        with alice.websocket_connect("/ws/lobby") as page:
            recv(page)
            realtime = ok(alice.post("/api/seeks", json=SEEK))
            daily = ok(alice.post("/api/seeks", json={**SEEK, "time_control": "daily"}))
            assert recv(watch)["seek"] == realtime and recv(watch)["seek"] == daily
        with alice.websocket_connect("/ws/presence"):  # another page, opened within the grace: still here
            time.sleep(1.5)
            assert sorted(seek_ids(bob)) == sorted([realtime["id"], daily["id"]])
        assert sorted(seek_ids(bob)) == sorted([realtime["id"], daily["id"]])  # the grace runs again
        assert recv(watch, timeout=5) == {"type": "seek_removed", "ids": [realtime["id"]], "reason": "left"}
    assert seek_ids(bob) == [daily["id"]]  # a Daily seek stays


def until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.postgresql  # over PostgreSQL: the shared presence (cluster.py)
def test_a_seek_made_without_any_open_page_does_not_outlive_the_grace(server):
    server.app.state.services.lobby.grace_s = 0.2
    alice = account(server, "alice")
    ok(alice.post("/api/seeks", json=SEEK))
    until(lambda: seek_ids(alice) == [])


def test_a_daily_seek_lasts_fourteen_days(server, clock):
    alice, bob = account(server, "alice"), account(server, "bob")
    seek = ok(alice.post("/api/seeks", json={**SEEK, "time_control": "daily"}))
    lobby = server.app.state.services.lobby
    with bob.websocket_connect("/ws/lobby") as watch:
        recv(watch)
        clock.advance(14 * DAY_MS - 1)
        lobby.sweep()
        assert seek_ids(bob) == [seek["id"]]
        clock.advance(1)
        assert seek_ids(bob) == []  # not listed, not acceptable, before the sweep drops it
        assert bob.post(f"/api/seeks/{seek['id']}/accept").status_code == 404
        server.call(_async(lobby.sweep))
        assert recv(watch) == {"type": "seek_removed", "ids": [seek["id"]], "reason": "expired"}


def _async(fn):
    async def run():
        return fn()
    return run


@pytest.mark.postgresql  # over PostgreSQL: the shared presence (cluster.py)
def test_after_a_restart_daily_seeks_stay_and_real_time_ones_wait_for_their_creators(server, restart, monkeypatch):
    monkeypatch.setattr(lobby_module, "STARTUP_GRACE_S", 1.5)
    alice, bob = account(server, "alice"), account(server, "bob")
    with alice.websocket_connect("/ws/presence"), bob.websocket_connect("/ws/presence"):
        daily = ok(alice.post("/api/seeks", json={**SEEK, "time_control": "daily"}))["id"]
        gone = ok(alice.post("/api/seeks", json=SEEK))["id"]
        back = ok(bob.post("/api/seeks", json=SEEK))["id"]
    cookies = [dict(b.cookies) for b in (alice, bob)]
    server = restart(server)
    bob = server.browser(cookies=cookies[1])
    assert sorted(seek_ids(bob)) == sorted([daily, gone, back])
    with bob.websocket_connect("/ws/lobby") as watch:
        recv(watch)
        assert recv(watch, timeout=5) == {"type": "seek_removed", "ids": [gone], "reason": "left"}
        assert sorted(seek_ids(bob)) == sorted([daily, back])


def test_the_lobby_socket_answers_sync_and_refuses_anything_else(server):
    visitor = server.browser()
    with visitor.websocket_connect("/ws/lobby") as w:
        recv(w)
        for message in ("nonsense", '{"type": "move"}', "[1]"):
            w.send_text(message)
            assert recv(w)["type"] == "error"
        w.send_json({"type": "sync"})
        assert recv(w) == {"type": "seeks", "seeks": []}


# -- quick pairing ---------------------------------------------------------------------------------
def test_the_pools_are_data_with_the_issues_grid(server):
    pools = {p["id"]: p for p in ok(server.browser().get("/api/pools"))["pools"]}
    assert {"super16-blitz-3+2", "super16-blitz-5+0", "super16-rapid-10+5", "super16-daily", "chess-blitz-3+2",
            "superchess-rapid-10+5", "intergrid-rapid-10+5", "vanguard-rapid-10+5", "tilingrider-rapid-10+5",
            "capablanca-blitz-3+2"} == set(pools)
    assert pools["super16-daily"]["speed"] == "daily" and pools["chess-blitz-3+2"]["time_control"]["name"] == "Blitz 3+2"
    r = server.browser().post("/api/pools/chess-9+9/join")
    assert r.status_code == 404 and "no quick pairing pool" in r.json()["detail"]


@pytest.mark.postgresql
def test_joining_a_pool_pairs_with_the_closest_rated_waiting_player(server):
    lobby = server.app.state.services.lobby
    waiting = {}
    for name, rating in (("low", 1200), ("near", 1650), ("high", 2100)):  # waiting at once: none paired
        b = account(server, name)
        me = ok(b.get("/api/me"))["id"]
        with server.store.session() as s:
            s.add(RatingRow(player_id=me, variant="super16", speed="rapid", rating=rating,
                            deviation=60, volatility=0.06, games=50, updated_at=0))
            s.commit()
        seek = server.call(_async(lambda: lobby.add(waiting_game("super16", "rapid-10+5", me, 0, server.clock()),
                                                    True, None, "super16-rapid-10+5")))
        assert seek["pool"] == "super16-rapid-10+5" and seek["creator"]["rating"]["rating"] == rating
        waiting[name] = (b, seek)
    joiner = account(server, "joiner")
    with server.store.session() as s:
        s.add(RatingRow(player_id=ok(joiner.get("/api/me"))["id"], variant="super16", speed="rapid", rating=1700,
                        deviation=60, volatility=0.06, games=50, updated_at=0))
        s.commit()
    near, near_seek = waiting["near"]
    with near.websocket_connect("/ws/presence") as told:
        game = ok(joiner.post("/api/pools/super16-rapid-10+5/join"))["game_id"]
        assert recv(told) == {"type": "game_started", "game_id": game, "seek_id": near_seek["id"]}
    state = http_state(joiner, game)
    assert state["status"] == "active" and state["rated"] and {p["name"] for p in state["players"]} == {"near", "joiner"}
    assert near_seek["id"] not in seek_ids(joiner)


def test_two_guests_meet_in_a_pool_and_a_guest_never_takes_a_rated_seek(server):
    rated = ok(account(server, "alice").post("/api/pools/chess-blitz-3+2/join"))["seek"]
    guest, other = server.browser(), server.browser()
    mine = ok(guest.post("/api/pools/chess-blitz-3+2/join"))["seek"]  # not alice's rated one
    assert mine["rated"] is False and mine["id"] != rated["id"]
    game = ok(other.post("/api/pools/chess-blitz-3+2/join"))["game_id"]
    state = http_state(other, game)
    assert state["rated"] is False and ok(guest.get("/api/me"))["name"] in [p["name"] for p in state["players"]]
