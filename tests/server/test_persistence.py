"""Persistence: a move is in the database before anyone hears of it; a NEW app on the same data
folder continues every game (identities, moves, draw offers, clocks without the downtime)."""
from __future__ import annotations

import asyncio

import pytest

from superchess.server import hub as hub_module
from superchess.server.store import Store

from .util import act, before_migrations, http_state, move, new_match, ok, recv_error, recv_state, register, sync, wait_for

pytestmark = pytest.mark.postgresql  # these run on PostgreSQL too (tests/server/conftest.py)

HOUR = 3600 * 1000
DAY = 24 * HOUR


@pytest.fixture
def reader(server):
    """A second, independent connection to the same database."""
    store = server.reader()
    yield store
    store.engine.dispose()


def test_every_move_is_in_the_database_before_the_opponent_sees_it(server, reader):
    m = new_match(server)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        played = []
        for mover, other, text in [(w1, w2, "h2h4"), (w2, w1, "h15h13"), (w1, w2, "g2g4"), (w2, w1, "b16c14")]:
            mover.send_json({"type": "move", "move": text})
            seen = recv_state(other)  # the opponent's message, before the mover's own echo is read
            played.append(text)
            assert reader.moves(m.id) == played
            row = reader.game(m.id)
            assert row.version == seen["version"] and row.status == "active"
            assert recv_state(mover)["version"] == seen["version"]
        w1.send_json({"type": "resign"})
        recv_state(w2)
        row = reader.game(m.id)
        assert (row.status, row.result, row.termination, row.winner) == ("finished", "0-1", "resignation", 1)


def test_a_new_app_on_the_same_folder_continues_the_game(server, restart, clock, database):
    m = new_match(server)
    register(server.browser(), "hanna")  # an account made before the restart
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "h2h4")
        move(w2, [w1], "h15h13")
        last = move(w1, [w2], "b1c3")[0]
        act(w2, [w1], {"type": "offer_draw"})
    before = {k: http_state(b, m.id) for k, b in (("p1", m.p1), ("p2", m.p2))}
    cookies = (dict(m.p1.cookies), dict(m.p2.cookies))

    server2 = restart(server)
    p1, p2 = server2.browser(cookies=cookies[0]), server2.browser(cookies=cookies[1])
    after = {"p1": http_state(p1, m.id), "p2": http_state(p2, m.id)}
    if database:  # over PostgreSQL a start is a take-over: one `resumed` event (cluster.py)
        for k in ("p1", "p2"):
            before[k]["version"] += 1
        last["version"] += 1
    for k in ("p1", "p2"):
        for key in ("version", "moves", "fen", "status", "players", "you", "legal", "draw_offer", "captured",
                    "can_claim_draw", "can_abort", "last_move"):
            assert after[k][key] == before[k][key], key
    assert after["p1"]["version"] == last["version"] + 1 and after["p2"]["draw_offer"] == 1
    assert ok(p2.get("/api/games"))["ongoing"][0]["id"] == m.id
    with p1.websocket_connect(f"/ws/games/{m.id}") as w1, p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s1, s2 = recv_state(w1), recv_state(w2)
        assert s1["version"] == s2["version"] == after["p1"]["version"]
        assert s2["state"]["legal"] and s1["state"]["legal"] == {}
        msgs = move(w2, [w1], "g15g13")
        assert msgs[0]["version"] == s1["version"] + 1
        assert msgs[0]["state"]["moves"] == ["h2h4", "h15h13", "b1c3", "g15g13"]
        move(w1, [w2], "c3b5")
    assert server2.store.moves(m.id) == ["h2h4", "h15h13", "b1c3", "g15g13", "c3b5"]
    # an account made before the restart still logs in
    b = server2.browser()
    assert ok(b.post("/api/login", json={"name": "hanna", "password": "correct horse"}))["name"] == "hanna"


def test_clocks_are_not_charged_for_the_downtime(server, restart, clock):
    m = new_match(server, time_control="blitz-3+2")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "h2h4")
        move(w2, [w1], "h15h13")
        clock.advance(5_000)
        move(w1, [w2], "g2g4")  # Player 1: 180 - 5 + 2 = 177 s; Player 2 to move
        clock.advance(3_000)
        assert sync(w2)["state"]["clock"]["remaining"] == [177_000, 177_000]
    cookies = (dict(m.p1.cookies), dict(m.p2.cookies))
    server.close()
    clock.advance(10 * 60_000)  # ten minutes down: more than Player 2's whole time
    server2 = restart(server)
    p1, p2 = server2.browser(cookies=cookies[0]), server2.browser(cookies=cookies[1])
    c = http_state(p1, m.id)["clock"]
    # Player 1 keeps exactly their time; Player 2's turn restarts now, from the time they had when it
    # began (the 3 s used before the crash are not charged either: the turn is replayed)
    assert c["remaining"] == [177_000, 180_000] and c["running"] == 1 and c["timed"] is True
    assert c["deadline"] == clock.t + 180_000
    server2.check_clocks()
    assert http_state(p1, m.id)["status"] == "active"
    clock.advance(4_000)
    with p2.websocket_connect(f"/ws/games/{m.id}") as w2, p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w2), recv_state(w1)
        c = move(w2, [w1], "g15g13")[0]["state"]["clock"]
        assert c["remaining"] == [177_000, 178_000]  # 180 - 4 + 2
    # a timer armed at start-up (hub.resume) flags a game whose time then runs out
    clock.advance(177_000)
    server2.check_clocks()
    assert http_state(p1, m.id)["termination"] == "time"


def play_three_moves(m, clock) -> dict:
    """Both first moves (untimed), then a timed one by Player 1 after 5 s; Player 2's turn begins.
    The clock as both see it then."""
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "h2h4")
        move(w2, [w1], "h15h13")
        clock.advance(5_000)
        return move(w1, [w2], "g2g4")[1]["state"]["clock"]


def test_loading_the_games_at_start_up_is_not_charged(server, restart, clock, monkeypatch):
    games = [new_match(server, time_control="blitz-3+2") for _ in range(2)]
    for m in games:
        play_three_moves(m, clock)
    setup = new_match(server, mode="private")  # a real-time set-up window: 300 s, untouched so far
    cookies = [dict(m.p1.cookies) for m in (*games, setup)]
    server.close()
    clock.advance(60_000)
    loading = Store.moves

    def slow_loading(store, game_id):  # each game takes 1.5 s to load
        clock.advance(1_500)
        return loading(store, game_id)

    monkeypatch.setattr(Store, "moves", slow_loading)
    server2 = restart(server)
    ready = clock.t  # the start-up is over: every game is loaded
    for m, jar in zip(games, cookies):
        c = http_state(server2.browser(cookies=jar), m.id)["clock"]
        assert c["remaining"] == [177_000, 180_000] and c["running"] == 1
        assert c["deadline"] == ready + 180_000  # the same for every game, however early it was loaded
    s = http_state(server2.browser(cookies=cookies[2]), setup.id)
    assert s["status"] == "setup" and s["setup_deadline"] == ready + 300_000


@pytest.mark.parametrize("moves", [0, 3])
def test_a_daily_deadline_is_an_instant_that_a_restart_does_not_move(server, restart, clock, moves):
    m = new_match(server, time_control="daily")
    before = play_three_moves(m, clock) if moves else http_state(m.p1, m.id)["clock"]
    deadline = before["deadline"]  # Player 2's day to move (moves=0: Player 1's day for the first move)
    assert deadline == clock.t + DAY
    cookies = dict(m.p1.cookies)
    clock.advance(5 * HOUR)
    server.close()
    clock.advance(3 * HOUR)  # down for three hours: they count, as in correspondence chess
    server2 = restart(server)
    c = http_state(server2.browser(cookies=cookies), m.id)["clock"]
    assert c["deadline"] == deadline and c["running"] == before["running"]
    if moves:
        assert c["remaining"][1] == DAY - 8 * HOUR
    clock.advance(DAY - 8 * HOUR - 1)
    server2.check_clocks()
    assert http_state(server2.browser(cookies=cookies), m.id)["status"] == "active"


def test_a_daily_game_whose_deadline_passed_while_down_is_flagged_at_resume(server, restart, clock):
    m = new_match(server, time_control="daily")
    deadline = play_three_moves(m, clock)["deadline"]  # Player 2's
    cookies = dict(m.p1.cookies)
    server.close()
    clock.t = deadline + HOUR  # the day ran out while the server was down
    server2 = restart(server)
    # the timer armed at start-up does it, with no event and no clock check
    s = wait_for(server2, m.id, server2.browser(cookies=cookies), lambda s: s["status"] != "active", timeout=10)
    assert (s["status"], s["result"], s["termination"]) == ("finished", "1-0", "time")


def test_a_daily_set_up_deadline_is_an_instant_that_a_restart_does_not_move(server, restart, clock):
    m = new_match(server, mode="private", time_control="daily")
    deadline = http_state(m.p1, m.id)["setup_deadline"]
    assert deadline == clock.t + DAY
    cookies = dict(m.p1.cookies)
    server.close()
    clock.advance(3 * HOUR)
    server2 = restart(server)
    assert http_state(server2.browser(cookies=cookies), m.id)["setup_deadline"] == deadline


def test_a_game_saved_before_turn_started_at_existed_still_resumes(server, restart, clock, database):
    import sqlalchemy as sa
    m = new_match(server, time_control="daily")
    play_three_moves(m, clock)
    cookies = dict(m.p1.cookies)
    server.close()
    old = server.reader()
    before_migrations(old.engine)
    with old.engine.begin() as conn:  # a database from before the column (and migrations)
        conn.execute(sa.text("ALTER TABLE games DROP COLUMN turn_started_at"))
    old.engine.dispose()
    clock.advance(HOUR)
    server2 = restart(server)
    c = http_state(server2.browser(cookies=cookies), m.id)["clock"]
    assert c["running"] == 1 and c["deadline"] == clock.t + DAY  # no instant was stored: the day starts now
    if database is None:  # (over PostgreSQL a start is a take-over, which saves the game: `resumed`)
        assert server2.store.game(m.id).turn_started_at is None


def test_the_first_move_window_restarts_with_the_server(server, restart, clock):
    m = new_match(server)
    cookies = dict(m.p1.cookies)
    clock.advance(50_000)
    server2 = restart(server)
    clock.advance(50_000)  # 100 s since the start, but only 50 s of it with the server up
    server2.check_clocks()
    p1 = server2.browser(cookies=cookies)
    assert http_state(p1, m.id)["status"] == "active"
    clock.advance(10_000)
    server2.check_clocks()
    assert http_state(p1, m.id)["status"] == "aborted"


def test_invitations_and_finished_games_survive_a_restart(server, restart):
    waiting = new_match(server, accept=False, variant="chess", time_control="daily")
    done = new_match(server)
    ok(done.p1.get("/api/me"))
    with done.p2.websocket_connect(f"/ws/games/{done.id}") as w2:
        recv_state(w2)
        w2.send_json({"type": "resign"})
        recv_state(w2)
    cookies = {"creator": dict(waiting.creator.cookies), "opponent": dict(waiting.opponent.cookies),
               "done": dict(done.p1.cookies)}
    server2 = restart(server)
    creator, opponent = server2.browser(cookies=cookies["creator"]), server2.browser(cookies=cookies["opponent"])
    assert ok(creator.get("/api/games"))["invitations"][0]["id"] == waiting.id
    assert ok(opponent.post(f"/api/invitations/{waiting.token}/accept")) == {"game_id": waiting.id}
    s = http_state(opponent, waiting.id)
    assert s["status"] == "active" and s["variant"] == "chess" and s["clock"]["daily"] is True
    d = server2.browser(cookies=cookies["done"])
    finished = http_state(d, done.id)
    assert (finished["status"], finished["result"], finished["termination"]) == ("finished", "1-0", "resignation")
    assert ok(d.get("/api/games"))["finished"][0]["result"] == "1-0"


@pytest.mark.parametrize("ending", ["resign", "abort", "agreement", "claim"])
def test_a_finished_game_keeps_its_ending_after_a_restart(server, restart, ending):
    from ..rules.helpers import make_fen
    fen = make_fen("super16", {"i1": "K", "a1": "R", "p16": "k", "h10": "p"}, halfmove=200) \
        if ending == "claim" else None
    m = new_match(server, fen=fen)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        payloads = {"resign": [{"type": "resign"}], "abort": [{"type": "abort"}],
                    "agreement": [{"type": "offer_draw"}, {"type": "accept_draw"}],
                    "claim": [{"type": "claim_draw"}]}[ending]
        for i, payload in enumerate(payloads):
            ws, other = (w1, w2) if i % 2 == 0 else (w2, w1)
            last = act(ws, [other], payload)[0]["state"]
    record = m.p1.get(f"/api/games/{m.id}/record").text
    cookies = dict(m.p1.cookies)
    server2 = restart(server)
    p1 = server2.browser(cookies=cookies)
    after = http_state(p1, m.id)
    assert (after["status"], after["result"], after["termination"]) == (
        last["status"], last["result"], last["termination"])
    assert after["reason"] == last["reason"]
    assert p1.get(f"/api/games/{m.id}/record").text == record


def test_a_database_from_an_earlier_version_gains_the_new_columns(data_dir):
    import sqlalchemy as sa

    from superchess.server.store import Store
    store = Store.in_folder(data_dir)
    before_migrations(store.engine)
    with store.engine.begin() as conn:  # as the first release made it: no reprogramming columns, no migrations
        for col in ("mode", "roster0", "roster1", "submitted0", "submitted1", "setup_deadline"):
            conn.execute(sa.text(f"ALTER TABLE games DROP COLUMN {col}"))
    store.engine.dispose()
    store = Store.in_folder(data_dir)
    columns = {c["name"]: c for c in sa.inspect(store.engine).get_columns("games")}
    assert {"mode", "roster0", "submitted1", "setup_deadline"} <= set(columns)
    assert columns["mode"]["default"] == "'default'"
    store.engine.dispose()


def test_a_finished_game_nobody_watches_leaves_memory_and_reloads_on_demand(server, monkeypatch):
    """Games without a running clock that nobody watches stay in memory only among the most
    recently used `IDLE_KEPT` (here none)."""
    from .util import act, before_migrations, new_match, recv_state
    monkeypatch.setattr(hub_module, "IDLE_KEPT", 0)
    m = new_match(server)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        act(w1, [], {"type": "move", "move": "h2h4"})
        act(w1, [], {"type": "resign"})
        assert m.id in server.hub.live  # still watched
    assert m.id not in server.hub.live and m.id not in server.hub.locks
    s = m.state(m.p2)
    assert (s["status"], s["termination"], s["moves"]) == ("finished", "resignation", ["h2h4"])
    assert "Player 1 resigned" in s["reason"]


def test_idle_games_in_memory_are_bounded(server, monkeypatch):
    """Reading many games that are over keeps only the most recently used in memory."""
    monkeypatch.setattr(hub_module, "IDLE_KEPT", 2)
    games = [new_match(server, accept=False) for _ in range(4)]
    for m in games:
        m.state(m.p1)  # a waiting game, read: loaded
    assert [m.id in server.hub.live for m in games] == [False, False, True, True]
    assert games[0].state(games[0].p1)["status"] == "waiting"  # reloaded on demand
    assert [m.id in server.hub.live for m in games] == [True, False, False, True]


def test_events_of_several_games_at_once_share_one_commit(server, reader):
    """Group commit: moves of different games that arrive together are saved in one transaction,
    and each is in the database before its game's players hear of it."""
    games = [new_match(server) for _ in range(3)]
    batches = []
    save = server.store.save_games
    server.store.save_games = lambda batch, *options: (batches.append(len(batch)), save(batch, *options))[1]
    rows = [server.store.game(m.id) for m in games]

    async def together():
        await asyncio.gather(*(server.hub.act(r.id, r.player0_id, "move", {"move": "h2h4"}) for r in rows))

    server.call(together)
    assert batches == [3]
    for m in games:
        assert reader.moves(m.id) == ["h2h4"]
        assert http_state(m.p2, m.id)["moves"] == ["h2h4"]


def test_a_failed_commit_is_an_error_and_changes_nothing(server, reader):
    m = new_match(server)
    save = server.store.save_games

    def failing(batch):
        raise OSError("disk full")

    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        before = recv_state(w1)["version"]
        recv_state(w2)
        server.store.save_games = failing
        w1.send_json({"type": "move", "move": "h2h4"})
        assert "could not save" in recv_error(w1)
        assert reader.moves(m.id) == [] and reader.game(m.id).version == before
        assert http_state(m.p1, m.id)["moves"] == [] and http_state(m.p1, m.id)["version"] == before
        server.store.save_games = save
        move(w1, [w2], "h2h4")
        assert reader.moves(m.id) == ["h2h4"]


def test_saves_write_what_changed_since_the_last_commit_even_after_a_failed_one(server, reader):
    """The store sets only the columns that changed since it last committed a row; a transaction that
    failed counts as not written, so its changes go out with the next save."""
    import sqlalchemy.exc

    m = new_match(server)
    row = server.store.game(m.id)
    row.draw_offer, row.version = 1, row.version + 1
    server.store.save_games([(row, (0, "h2h4", 1))])
    row.remaining0, row.version = 4321, row.version + 1
    with pytest.raises(sqlalchemy.exc.IntegrityError):  # ply 0 is taken: the whole transaction fails
        server.store.save_games([(row, (0, "h2h3", 2))])
    assert reader.game(m.id).remaining0 != 4321
    row.version += 1
    server.store.save_games([(row, None)])
    saved = reader.game(m.id)
    assert (saved.draw_offer, saved.remaining0, saved.version) == (1, 4321, row.version)
    assert reader.moves(m.id) == ["h2h4"]
