"""The store under several processes (issue 24): saves checked against the stored version, the
notifications sent with a commit, and the games' leases. The version check runs on both databases;
leases, notifications and the games' followers are PostgreSQL's."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError

from superchess.server.store import DEAD_PROCESS_MS, FollowerRow, GameSave, SeekRow, Store, waiting_game, wall_ms

pytestmark = pytest.mark.postgresql  # these run on PostgreSQL too (tests/server/conftest.py)

NOW = 1_700_000_000_000
TTL = 3000


@pytest.fixture
def stores(database, data_dir):
    """Two stores on one database, as two server processes have."""
    made = [Store(database) if database else Store.in_folder(data_dir) for _ in range(2)]
    yield made
    for s in made:
        s.engine.dispose()


def active_game(store: Store) -> str:
    a, b = store.add_player("a", None, NOW), store.add_player("b", None, NOW)
    row = waiting_game("chess", "blitz-3+2", a.id, 0, NOW)
    row.player1_id, row.status = b.id, "active"
    store.add_game(row)
    return row.id


def test_a_save_another_process_overtook_is_left_out_and_named(stores):
    one, two = stores
    game_id = active_game(one)
    mine, theirs = one.game(game_id), two.game(game_id)
    theirs.version, theirs.draw_offer = 1, 0
    assert two.save_games([GameSave(theirs, (0, "e2e4", NOW))], process="two").stale == {}
    mine.version, mine.remaining0 = 1, 5  # the same version, made from the same old row
    assert one.save_games([GameSave(mine, (0, "d2d4", NOW))], process="one").stale == {game_id: 1}
    stored = one.game(game_id)
    assert (stored.version, stored.draw_offer, stored.remaining0) == (1, 0, theirs.remaining0)
    assert one.moves(game_id) == ["e2e4"]
    one.forget(game_id)
    mine = one.game(game_id)  # reloaded: the next version saves
    mine.version += 1
    assert one.save_games([GameSave(mine, (1, "e7e5", NOW))], process="one").stale == {}
    assert two.moves(game_id) == ["e2e4", "e7e5"]


def test_a_notification_is_sent_with_the_commit_and_not_for_a_save_left_out(postgres_url):
    store = Store(postgres_url)
    try:
        game_id = active_game(store)
        row = store.game(game_id)
        conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(conninfo, autocommit=True) as listener:
            listener.execute("LISTEN test_games")
            store.read_game(game_id, "two")  # another process follows the game
            row.version = 1
            store.save_games([GameSave(row)], "one", lambda save: ("test_games", f"{save.row.id}:{save.row.version}"))
            store.save_games([GameSave(row)], "one", lambda save: ("test_games", "stale"))  # version 1 again
            notes = [n.payload for n in listener.notifies(timeout=1)]
        assert notes == [f"{game_id}:1"]
    finally:
        store.engine.dispose()


def test_a_lease_is_held_until_it_expires_then_taken_by_another_owner(postgres_url):
    store = Store(postgres_url)
    try:
        game_id = active_game(store)
        assert store.take_leases("a", NOW, TTL) == {game_id}
        assert store.take_leases("b", NOW + TTL - 1, TTL) == set()  # renewable by its owner only
        assert store.take_leases("a", NOW + TTL - 1, TTL) == {game_id}  # renewed
        assert store.take_leases("b", NOW + 2 * TTL, TTL) == {game_id}  # expired: taken over
        assert store.take_leases("a", NOW + 2 * TTL, TTL) == set()
        store.drop_leases("b")
        assert store.take_leases("a", NOW + 2 * TTL, TTL, [game_id]) == {game_id}  # given up: free at once
        row = store.game(game_id)
        row.status, row.version = "finished", 1
        store.save_games([GameSave(row)])
        assert store.take_leases("a", NOW + 2 * TTL, TTL) == set()  # a game over holds no lease
    finally:
        store.engine.dispose()


def test_a_game_claimed_before_it_starts_stays_its_owner_s_through_the_sweep(postgres_url):
    """A process claims a game as it starts it (`Cluster.claim`), before the start is saved: its
    sweep in between still names the game as held, or the process would drop it, then take it
    over from itself once the start is saved (a 'resumed' event in a game nobody left)."""
    store = Store(postgres_url)
    try:
        game_id = active_game(store)
        row = store.game(game_id)
        row.status = "waiting"
        store.save_games([GameSave(row)])
        assert store.take_leases("a", NOW, TTL, [game_id]) == {game_id}
        assert store.take_leases("b", NOW, TTL) == set()  # nobody takes a waiting game's lease
        assert store.take_leases("a", NOW, TTL) == {game_id}
    finally:
        store.engine.dispose()


@pytest.fixture
def pg_store(postgres_url):
    store = Store(postgres_url)
    yield store
    store.engine.dispose()


def notes_of(store: Store, save) -> list[str]:
    """The notifications a save (a call of `save(publish)`) sends on channel test_games."""
    conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as listener:
        listener.execute("LISTEN test_games")
        save(lambda save: ("test_games", f"{save.row.id}:{save.row.version}"))
        return [n.payload for n in listener.notifies(timeout=0.5)]


def test_a_save_notifies_only_when_another_process_follows_the_game(pg_store):
    game_id = active_game(pg_store)
    row = pg_store.game(game_id)

    def save_as(process: str):
        def save(publish):
            row.version += 1
            pg_store.save_games([GameSave(row)], process, publish)
        return save
    assert notes_of(pg_store, save_as("one")) == []  # nobody else holds a copy
    read, moves = pg_store.read_game(game_id, "one")  # its saver follows it
    assert (read.version, moves) == (row.version, [])
    assert notes_of(pg_store, save_as("one")) == []
    pg_store.read_game(game_id, "two")
    assert notes_of(pg_store, save_as("one")) == [f"{game_id}:3"]
    pg_store.unfollow(game_id, "one")
    assert notes_of(pg_store, save_as("two")) == []  # "two" alone follows it now
    pg_store.unfollow(game_id, "two")
    assert notes_of(pg_store, save_as("one")) == []


def test_a_group_commit_on_postgresql_is_one_pipeline_and_a_failing_one_writes_nothing(pg_store):
    """The usual save (moves, clocks) goes to PostgreSQL in one pipeline, none of its statements
    through SQLAlchemy's one-by-one path; a save the database refuses (a move at a ply already
    stored) raises as before and leaves the game as it was."""
    game_id = active_game(pg_store)
    row = pg_store.game(game_id)
    one_by_one = []
    event.listen(pg_store.engine, "before_cursor_execute", lambda *args: one_by_one.append(args[2]))
    row.version, row.remaining0 = 1, 170_000
    pg_store.save_games([GameSave(row, (0, "e2e4", NOW))], "one", lambda save: ("test_games", "x"))
    assert one_by_one == []
    assert pg_store.moves(game_id) == ["e2e4"] and pg_store.game(game_id).remaining0 == 170_000
    row.version, row.remaining0 = 2, 160_000
    with pytest.raises(IntegrityError):
        pg_store.save_games([GameSave(row, (0, "d2d4", NOW))], "one")  # ply 0 is taken
    stored = pg_store.game(game_id)
    assert (stored.version, stored.remaining0, pg_store.moves(game_id)) == (1, 170_000, ["e2e4"])
    row.version = 2  # the same version again, now with the next ply: it saves
    pg_store.save_games([GameSave(row, (1, "e7e5", NOW))], "one")
    assert pg_store.moves(game_id) == ["e2e4", "e7e5"] and pg_store.game(game_id).remaining0 == 160_000


def test_a_group_commit_of_several_games_writes_each_its_own_columns_and_moves(pg_store):
    """The pipelined commit writes a batch's games in one statement per set of changed columns and
    its moves in one: each game still gets its own values, moves and takebacks."""
    a, b = pg_store.add_player("a", None, NOW), pg_store.add_player("b", None, NOW)
    ids = []
    for _ in range(3):
        row = waiting_game("chess", "blitz-3+2", a.id, 0, NOW)
        row.player1_id, row.status = b.id, "active"
        pg_store.add_game(row)
        ids.append(row.id)
    rows = [pg_store.game(game_id) for game_id in ids]
    for ply, text in enumerate(["e2e4", "e7e5"]):  # every game: two moves, each row written whole first
        for i, row in enumerate(rows):
            row.version, row.remaining0 = row.version + 1, 150_000 - 1000 * i - ply
        pg_store.save_games([GameSave(row, (ply, text, NOW)) for row in rows], "one")
    assert [pg_store.game(game_id).remaining0 for game_id in ids] == [149_999, 148_999, 147_999]
    one_by_one = []
    event.listen(pg_store.engine, "before_cursor_execute", lambda *args: one_by_one.append(args[2]))
    moved, offered, retracted = rows
    moved.version, moved.remaining0, moved.remaining1 = 3, 100_000, 90_000
    offered.version, offered.draw_offer = 3, 1
    retracted.version, retracted.remaining0 = 3, 80_000
    pg_store.save_games([GameSave(moved, (2, "g1f3", NOW)), GameSave(offered),
                         GameSave(retracted, (1, None, NOW))], "one")
    assert one_by_one == []
    stored = {game_id: pg_store.game(game_id) for game_id in ids}
    assert [(stored[r.id].version, stored[r.id].remaining0, stored[r.id].remaining1, stored[r.id].draw_offer)
            for r in rows] == [(3, 100_000, 90_000, None), (3, 148_999, 180_000, 1), (3, 80_000, 180_000, None)]
    assert [pg_store.moves(game_id) for game_id in ids] == [["e2e4", "e7e5", "g1f3"], ["e2e4", "e7e5"], ["e2e4"]]


def test_a_process_that_reads_a_game_while_a_save_holds_it_reads_the_saved_version(pg_store):
    """The follower's registration waits for the save's row lock: a save either finds the new
    follower (and notifies it) or is in what it reads; it never misses both."""
    game_id = active_game(pg_store)
    pg_store.read_game(game_id, "three")  # someone follows it, so the save publishes
    row = pg_store.game(game_id)
    row.version = 1
    publishing, release = threading.Event(), threading.Event()

    def slow_publish(save) -> None:
        publishing.set()
        release.wait(10)
    with ThreadPoolExecutor(2) as pool:
        saving = pool.submit(pg_store.save_games, [GameSave(row, (0, "e2e4", NOW))], "one", slow_publish)
        assert publishing.wait(10)
        reading = pool.submit(pg_store.read_game, game_id, "two")
        with pytest.raises(TimeoutError):
            reading.result(timeout=0.5)  # waits for the save's commit
        release.set()
        saving.result(10)
        stored, moves = reading.result(10)
    assert (stored.version, moves) == (1, ["e2e4"])


def test_a_game_a_process_makes_is_followed_and_leased_by_it_from_the_commit_that_makes_it(pg_store):
    """A rematch (made by a save) and an accepted seek's game: no other process's sweep between
    their commit and their maker's next renewal takes them over."""
    game_id = active_game(pg_store)
    row = pg_store.game(game_id)
    row.version, row.status = 1, "finished"
    rematch = waiting_game("chess", "blitz-3+2", row.player0_id, 0, NOW)
    rematch.player1_id, rematch.status = row.player1_id, "active"
    pg_store.save_games([GameSave(row, new_game=rematch)], "one")
    seek = SeekRow(id="seek1", creator_id=row.player0_id, variant="chess", time_control="blitz-3+2", mode="normal",
                   creator_side=0, rated=0, rating_variant="chess", speed="blitz", created_at=NOW)
    assert pg_store.add_seek(seek, 3, NOW)
    accepted = waiting_game("chess", "blitz-3+2", row.player0_id, 0, NOW)
    accepted.player1_id, accepted.status = row.player1_id, "active"
    assert pg_store.take_seek("seek1", accepted, "one")
    for made in (rematch.id, accepted.id):
        assert followers(pg_store, made) == ["one"]
    assert pg_store.take_leases("two", wall_ms(), TTL) == set()
    assert pg_store.take_leases("one", wall_ms(), TTL) == {rematch.id, accepted.id}


def test_the_follows_of_a_long_dead_process_are_dropped_and_it_learns_it_on_its_next_beat(pg_store):
    game_id = active_game(pg_store)
    pg_store.read_game(game_id, "alive")
    pg_store.read_game(game_id, "stalled")
    assert pg_store.beat("alive", NOW, NOW + TTL) is False  # new: nothing of it to read again
    assert pg_store.beat("stalled", NOW, NOW + TTL) is False
    assert pg_store.beat("stalled", NOW, NOW + TTL) is True
    assert pg_store.beat("alive", NOW + TTL + DEAD_PROCESS_MS - 1, NOW + 2 * TTL + DEAD_PROCESS_MS) is True
    assert followers(pg_store, game_id) == ["alive", "stalled"]  # expired, not yet dead
    assert pg_store.beat("alive", NOW + TTL + DEAD_PROCESS_MS + 1, NOW + 2 * TTL + DEAD_PROCESS_MS) is True
    assert followers(pg_store, game_id) == ["alive"]
    assert pg_store.beat("stalled", NOW + TTL + DEAD_PROCESS_MS + 2, NOW + 2 * TTL + DEAD_PROCESS_MS) is False
    pg_store.drop_process("alive")
    assert followers(pg_store, game_id) == []


def followers(store: Store, game_id: str) -> list[str]:
    with store.session() as s:
        return sorted(s.scalars(select(FollowerRow.process).where(FollowerRow.game_id == game_id)))
