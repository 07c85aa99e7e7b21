"""The store under several processes (issue 24): saves checked against the stored version, the
notifications sent with a commit, and the games' leases. The version check runs on both databases;
leases and notifications are PostgreSQL's."""
from __future__ import annotations

import psycopg
import pytest

from superchess.server.store import GameSave, Store, waiting_game

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
    assert two.save_games([GameSave(theirs, (0, "e2e4", NOW))], check_versions=True).stale == {}
    mine.version, mine.remaining0 = 1, 5  # the same version, made from the same old row
    assert one.save_games([GameSave(mine, (0, "d2d4", NOW))], check_versions=True).stale == {game_id: 1}
    stored = one.game(game_id)
    assert (stored.version, stored.draw_offer, stored.remaining0) == (1, 0, theirs.remaining0)
    assert one.moves(game_id) == ["e2e4"]
    one.forget(game_id)
    mine = one.game(game_id)  # reloaded: the next version saves
    mine.version += 1
    assert one.save_games([GameSave(mine, (1, "e7e5", NOW))], check_versions=True).stale == {}
    assert two.moves(game_id) == ["e2e4", "e7e5"]


def test_a_notification_is_sent_with_the_commit_and_not_for_a_save_left_out(postgres_url):
    store = Store(postgres_url)
    try:
        game_id = active_game(store)
        row = store.game(game_id)
        conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(conninfo, autocommit=True) as listener:
            listener.execute("LISTEN test_games")
            row.version = 1
            store.save_games([GameSave(row)], True, lambda save: ("test_games", f"{save.row.id}:{save.row.version}"))
            store.save_games([GameSave(row)], True, lambda save: ("test_games", "stale"))  # version 1 again
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
