"""Schema migrations (issue 24): every database is brought to the newest revision at start-up and
by `superchess db upgrade`; a data folder made before migrations (no `alembic_version` table) is
upgraded in place, and every game in it still loads and plays. The models and the migrations
describe the same schema."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from superchess.cli import main
from superchess.server import schema
from superchess.server.store import Base, Store

from .util import FakeClock, Server, act, before_migrations, legal_moves, new_match, ok, recv_state

pytestmark = pytest.mark.postgresql  # these run on PostgreSQL too (tests/server/conftest.py)

MOVES = ["h2h4", "h15h13", "g2g4", "b16c14"]


def test_the_models_and_the_migrations_make_the_same_schema(database, data_dir):
    store = Store(database) if database else Store.in_folder(data_dir)
    try:
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        assert schema.revision(store.engine) == schema.head()
    finally:
        store.engine.dispose()


def test_db_upgrade_makes_and_reports_the_schema(database, data_dir, capsys):
    target = ["--db", database] if database else ["--data", str(data_dir)]
    assert main(["db", "upgrade", *target]) == 0
    assert main(["db", "upgrade", *target]) == 0  # a second time: nothing to do
    out = capsys.readouterr().out
    assert out.count(f"at revision {schema.head()}") == 2
    store = Store(database) if database else Store.in_folder(data_dir)
    try:
        assert schema.revision(store.engine) == schema.head()
        assert set(sa.inspect(store.engine).get_table_names()) >= {"games", "moves", "seeks", "ratings"}
    finally:
        store.engine.dispose()


def test_a_data_folder_from_before_migrations_is_upgraded_and_every_game_loads_and_plays(data_dir):
    clock = FakeClock()
    old = Server(data_dir, clock)
    games = []
    for n in range(6):  # games in every state: waiting, in play at several plies, finished
        m = new_match(old, accept=n != 0)
        if n:
            with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
                recv_state(w1), recv_state(w2)
                for ply, text in enumerate(MOVES[:n - 1]):
                    act((w1, w2)[ply % 2], [(w2, w1)[ply % 2]], {"type": "move", "move": text})
                if n == 5:
                    act(w1, [], {"type": "resign"})
        games.append((m, {"cookies": dict(m.p1.cookies)}, {"cookies": dict(m.p2.cookies)}, m.state(m.p1)))
    old.close()
    engine = sa.create_engine(f"sqlite:///{data_dir / 'superchess.db'}")
    before_migrations(engine)  # the data folder as the version before migrations left it
    assert "alembic_version" not in sa.inspect(engine).get_table_names()
    engine.dispose()

    new = Server(data_dir, clock)
    try:
        assert schema.revision(new.store.engine) == schema.head()
        for m, p1, p2, before in games:
            b1, b2 = new.browser(**p1), new.browser(**p2)
            after = m.state(b1)
            for key in ("status", "moves", "fen", "version", "result", "players"):
                assert after[key] == before[key], (m.id, key)
            if after["status"] == "active":  # it plays on: the side to move makes a legal move
                mover = (b1, b2)[after["turn"]]
                state = m.state(mover)
                text = next(iter(legal_moves(state).values()))[0]
                with mover.websocket_connect(f"/ws/games/{m.id}") as w:
                    recv_state(w)
                    w.send_json({"type": "move", "move": text})
                    assert recv_state(w)["state"]["moves"] == before["moves"] + [text]
            elif after["status"] == "waiting":  # its invitation can still be accepted
                assert ok(new.browser().post(f"/api/invitations/{m.token}/accept")) == {"game_id": m.id}
    finally:
        new.close()
