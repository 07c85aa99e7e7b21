"""Persistence behind a small repository: players, sessions, games and their moves, the lobby's
seeks, and ratings.

SQLAlchemy 2 models; SQLite in the data folder is the default, PostgreSQL (psycopg 3) the
production store; the schema is kept by migrations (`schema.py`). A move is committed here before
the server announces it.
"""
from __future__ import annotations

import hashlib
import secrets
import time
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, NamedTuple

import psycopg

from sqlalchemy import (BigInteger, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint, and_,
                        any_, bindparam, cast, create_engine, delete, event, exists, func, insert, or_,
                        select, text, update)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from . import ratings, schema
from .clock import TIME_CONTROLS
from .glicko2 import Rating


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)  # None: a guest
    colour: Mapped[str | None] = mapped_column(String(7), nullable=True)
    created_at: Mapped[int] = mapped_column(BigInteger)
    bot_level: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the computer, at this level


class SessionRow(Base):
    __tablename__ = "sessions"
    token: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 (hex) of the cookie's token
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[int] = mapped_column(BigInteger)
    last_seen: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # None: from before expiry


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    variant: Mapped[str] = mapped_column(String(20))
    start_fen: Mapped[str | None] = mapped_column(Text, nullable=True)
    time_control: Mapped[str] = mapped_column(String(30))
    status: Mapped[str] = mapped_column(String(12), index=True)  # waiting active finished aborted declined
    creator_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    creator_side: Mapped[int] = mapped_column(Integer)
    player0_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    player1_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    invited_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    invite_token: Mapped[str] = mapped_column(String(64), unique=True)
    result: Mapped[str] = mapped_column(String(8), default="*")
    termination: Mapped[str | None] = mapped_column(String(30), nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    claimed: Mapped[int] = mapped_column(Integer, default=0)
    draw_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    remaining0: Mapped[int] = mapped_column(BigInteger, default=0)
    remaining1: Mapped[int] = mapped_column(BigInteger, default=0)
    # when the running side's turn began (ms; None: no clock runs): a Daily deadline counts from it
    # across restarts, so a restart does not move it
    turn_started_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[int] = mapped_column(BigInteger)
    # reprogramming (R13-R17): mode, each side's roster as text (None: default), and the private
    # set-up phase (who has submitted, until when)
    mode: Mapped[str] = mapped_column(String(10), default="default")
    roster0: Mapped[str | None] = mapped_column(Text, nullable=True)
    roster1: Mapped[str | None] = mapped_column(Text, nullable=True)
    submitted0: Mapped[int] = mapped_column(Integer, default=0)
    submitted1: Mapped[int] = mapped_column(Integer, default=0)
    setup_deadline: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    prelude: Mapped[str | None] = mapped_column(Text, nullable=True)  # Superchess prelude steps (JSON)
    rated: Mapped[int] = mapped_column(Integer, default=0)  # its end changes both players' ratings
    rematch_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the side offering one
    rematch_id: Mapped[str | None] = mapped_column(String(24), nullable=True)  # the rematch, once accepted
    # each side's piece colour in this game (#rrggbb), null: the default (server/colours.py)
    colour0: Mapped[str | None] = mapped_column(String(7), nullable=True)
    colour1: Mapped[str | None] = mapped_column(String(7), nullable=True)
    takeback_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the side asking one


def waiting_game(variant: str, time_control: str, creator_id: int, creator_side: int, now: int, *,
                 start_fen: str | None = None, mode: str = "default", roster: str | None = None,
                 rated: bool = False, invited_id: int | None = None) -> GameRow:
    """A new game waiting for its opponent, its creator on `creator_side` (a match, a seek accepted,
    a rematch); `roster` is Symmetric mode's, for both sides. Not stored yet."""
    tc = TIME_CONTROLS[time_control]
    start = tc.per_move_ms if tc.daily else tc.initial_ms
    row = GameRow(id=new_token(9), variant=variant, start_fen=start_fen, time_control=time_control, status="waiting",
                  creator_id=creator_id, creator_side=creator_side, invited_id=invited_id, invite_token=new_token(),
                  remaining0=start, remaining1=start, version=0, created_at=now, updated_at=now, mode=mode,
                  roster0=roster, roster1=roster, rated=int(rated), result="*", claimed=0, submitted0=0, submitted1=0)
    setattr(row, f"player{creator_side}_id", creator_id)
    return row


class SeekRow(Base):
    """An open seek of the lobby: a match anyone may accept, with the settings of a match. A
    real-time seek lasts while its creator is on the site (`expires_at` None); a Daily one until
    `expires_at`. Accepting deletes it in the transaction that adds the game."""
    __tablename__ = "seeks"
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    variant: Mapped[str] = mapped_column(String(20))
    time_control: Mapped[str] = mapped_column(String(30))
    mode: Mapped[str] = mapped_column(String(10))
    creator_side: Mapped[int] = mapped_column(Integer)
    start_fen: Mapped[str | None] = mapped_column(Text, nullable=True)
    roster: Mapped[str | None] = mapped_column(Text, nullable=True)  # Symmetric mode: the proposed roster
    rated: Mapped[int] = mapped_column(Integer)
    rating_min: Mapped[int | None] = mapped_column(Integer, nullable=True)  # who may accept, by rating
    rating_max: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_variant: Mapped[str] = mapped_column(String(30))  # its rating pool (ratings.Pool)
    speed: Mapped[str] = mapped_column(String(12))
    pool: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)  # quick pairing pool
    created_at: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class RatingRow(Base):
    """A player's Glicko-2 rating in one pool (rating variant and speed)."""
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_pool", "variant", "speed", "rating"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(30), primary_key=True)
    speed: Mapped[str] = mapped_column(String(12), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[int] = mapped_column(BigInteger)


class RatingChangeRow(Base):
    """What one rated game did to one player's rating: the profile's history and the game's result line."""
    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "player_id", "at"),)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(30))
    speed: Mapped[str] = mapped_column(String(12))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)  # after the game
    at: Mapped[int] = mapped_column(BigInteger)


class SavedRosterRow(Base):
    __tablename__ = "rosters"
    __table_args__ = (UniqueConstraint("player_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    variant: Mapped[str] = mapped_column(String(20))
    roster: Mapped[str] = mapped_column(Text)  # text form (rules.program.Roster.text)
    updated_at: Mapped[int] = mapped_column(BigInteger)


class LeaseRow(Base):
    """Which server process owns a game in play (its timers and computer player) until when (ms
    since the epoch, wall clock) unless the owner renews it; another process takes an expired one."""
    __tablename__ = "game_leases"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class PresenceRow(Base):
    """A player present on the site through a server process (several processes over one
    PostgreSQL), until `expires_at` (ms since the epoch, wall clock) unless the process renews it:
    while the player has a socket open there it is renewed; when the last one closes it is left to
    expire after the lobby's grace; a dead process's rows expire by themselves."""
    __tablename__ = "presence"
    player_id: Mapped[int] = mapped_column(Integer, primary_key=True)  # no foreign key: a purged guest may linger
    owner: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class FollowerRow(Base):
    """A server process holding a copy of a game (several processes over one PostgreSQL): a save of
    the game by another process notifies it; a game nobody else follows is saved without a
    notification. Registered with the game's row locked (`Store.read_game`). `watchers`: how many
    watch the game's page through that process (`Store.count_watchers`)."""
    __tablename__ = "game_followers"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    process: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)  # `Cluster.owner`
    watchers: Mapped[int] = mapped_column(Integer, server_default="0")


class ProcessRow(Base):
    """A live server process (several processes over one PostgreSQL), until `expires_at` (ms since
    the epoch, wall clock) unless it renews it; the games a long-dead one followed are unfollowed."""
    __tablename__ = "server_processes"
    process: Mapped[str] = mapped_column(String(64), primary_key=True)  # `Cluster.owner`
    expires_at: Mapped[int] = mapped_column(BigInteger)


class ChatLineRow(Base):
    """A line of a game page's chat (`chat.py`): its room, its author's name as shown, the author's
    side (None: a watcher), its text and when it was said (ms)."""
    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_room", "game_id", "room", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    room: Mapped[str] = mapped_column(String(8))
    author: Mapped[str] = mapped_column(String(40))
    side: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[int] = mapped_column(BigInteger)


class MoveRow(Base):
    __tablename__ = "moves"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(16))
    at: Mapped[int] = mapped_column(BigInteger)


# what changes after a game row is created
_MUTABLE_GAME_COLUMNS = ("status", "player0_id", "player1_id", "result", "termination", "winner", "claimed",
                         "draw_offer", "remaining0", "remaining1", "version", "updated_at", "roster0", "roster1",
                         "submitted0", "submitted1", "setup_deadline", "prelude", "start_fen", "turn_started_at",
                         "rematch_offer", "rematch_id", "colour0", "colour1", "takeback_offer")


_FINAL_STATUSES = ("finished", "aborted", "declined")


@lru_cache(maxsize=64)
def _update_game(columns: tuple[str, ...]):
    """The UPDATE of these columns of one game row, built once per column set: constructing
    SQLAlchemy statements per move costs more than executing them."""
    return update(GameRow.__table__).where(GameRow.__table__.c.id == bindparam("game_id")).values(
        {c: bindparam(c) for c in columns})


_INSERT_MOVE = insert(MoveRow.__table__)
_DELETE_MOVE = delete(MoveRow.__table__).where((MoveRow.__table__.c.game_id == bindparam("game_id"))
                                               & (MoveRow.__table__.c.ply >= bindparam("ply")))


# a group commit's statements, built once: building a statement costs more CPU than running it
_GAMES, _FOLLOWERS = GameRow.__table__, FollowerRow.__table__


def _locked_versions(among: Callable):
    """The games' versions, their rows locked in id order; `among(column)`: the games' ids."""
    return select(_GAMES.c.id, _GAMES.c.version).where(among(_GAMES.c.id)).order_by(_GAMES.c.id).with_for_update()


def _followed_elsewhere(among: Callable):
    """Which of the games a process other than the `process` parameter follows."""
    return select(_FOLLOWERS.c.game_id).distinct().where(among(_FOLLOWERS.c.game_id)
                                                         & (_FOLLOWERS.c.process != bindparam("process")))


def _in_ids(column):  # any database: the `ids` list expanded into IN (...)
    return column.in_(bindparam("ids", expanding=True))


def _any_of_ids(column):  # PostgreSQL: one array parameter, so the statement compiles once for psycopg
    return column == any_(bindparam("ids", type_=ARRAY(String)))


_LOCKED_VERSIONS, _FOLLOWED_ELSEWHERE = _locked_versions(_in_ids), _followed_elsewhere(_in_ids)
_PG_LOCKED_VERSIONS, _PG_FOLLOWED_ELSEWHERE = _locked_versions(_any_of_ids), _followed_elsewhere(_any_of_ids)


def _unnested(columns: dict):
    """PostgreSQL: rows given as one array parameter per column (parameter name -> the column it
    fills), unnested into a table: a statement over it runs once for a whole batch, where
    executemany runs once per row (running a statement costs the database more than writing its row)."""
    arrays = [cast(bindparam(name), ARRAY(column.type)) for name, column in columns.items()]
    return func.unnest(*arrays).table_valued(*columns).render_derived(name="batch")


@lru_cache(maxsize=64)
def _pg_update_games(columns: tuple[str, ...]):
    """PostgreSQL: `_update_game` for a batch of games in one statement (`_unnested`)."""
    batch = _unnested({"game_id": _GAMES.c.id, **{c: _GAMES.c[c] for c in columns}})
    return update(_GAMES).where(_GAMES.c.id == batch.c.game_id).values({c: batch.c[c] for c in columns})


_MOVE_COLUMNS = ("game_id", "ply", "text", "at")
_PG_INSERT_MOVES = insert(MoveRow.__table__).from_select(
    _MOVE_COLUMNS, select(_unnested({c: MoveRow.__table__.c[c] for c in _MOVE_COLUMNS})))


def _columns_of(params: list[dict]) -> dict[str, list]:
    """Rows of parameters as one list per name (`_unnested`'s arrays)."""
    return {name: [row[name] for row in params] for name in params[0]}


_NOTIFY = select(func.pg_notify(bindparam("channel"), bindparam("payload")))
# several notifications in one statement (one round trip), sent in the arrays' order (unnest's)
_NOTIFY_ALL = text("SELECT pg_notify(c, p) FROM unnest(CAST(:channels AS text[]), CAST(:payloads AS text[])) AS n(c, p)")


_PSYCOPG = PGDialect_psycopg()


@lru_cache(maxsize=128)
def _psycopg_sql(statement) -> str:
    """A statement as psycopg runs it (named %(...)s parameters), compiled once: the pipelined group
    commit (`Store._save_pipelined`) hands its statements to psycopg directly."""
    return str(statement.compile(dialect=_PSYCOPG))


class _Writes(NamedTuple):
    """A group commit's row writes (`Store._writes`)."""
    updates: dict[tuple[str, ...], list[dict]]  # the changed columns -> each game's parameters
    dropped: list[dict]  # moves taken back: game id and the first ply dropped
    moves: list[dict]  # new moves
    written: list[tuple[str, tuple, bool]]  # what each game's row holds once committed (`_remember`)


def _pipelinable(save: GameSave) -> bool:
    """Can the pipelined commit (`Store._save_pipelined`) write this save: it makes no game and
    rates none (those go through the ORM and the ratings)."""
    return save.new_game is None and not (save.pool is not None and save.row.status == "finished")


def row_values(row: GameRow) -> dict:
    """The row's mutable columns by name: what one version of a game holds besides its moves."""
    return dict(zip(_MUTABLE_GAME_COLUMNS, _mutable_values(row)))


def row_at(row: GameRow, values: dict) -> GameRow:
    """A new (unsaved) row of the same game holding `values` (`row_values` of another version)."""
    table = GameRow.__table__
    copy = GameRow(**{c.name: getattr(row, c.name) for c in table.columns})
    for column, value in values.items():
        if column in table.c:
            setattr(copy, column, value)
    return copy


class Saved(NamedTuple):
    """What `Store.save_games` did: the rating changes made (by game id, `_rate`) and the games left
    out because another process had written them first."""
    changes: dict[str, list[dict]]
    stale: dict[str, int]  # game id -> the version the database holds


class GameSave(NamedTuple):
    """One game's part of a group commit (`Store.save_games`)."""
    row: GameRow
    new_move: tuple[int, str | None, int] | None = None  # (ply, text or None to take it back, at)
    pool: ratings.Pool | None = None  # a rated game's pool: its end is rated in the same transaction
    new_game: GameRow | None = None  # a game this event makes (a rematch), added in the same transaction


def _mutable_values(row: GameRow) -> tuple:
    """The row's mutable columns, as `save_games` compares them with what it last wrote."""
    # a loaded row's attributes are in its __dict__; reading them there skips SQLAlchemy's
    # instrumentation, which cost more than the UPDATE (unset ones take the ORM's default)
    loaded = row.__dict__
    return tuple([loaded[c] if c in loaded else getattr(row, c) for c in _MUTABLE_GAME_COLUMNS])


def _rate(conn, row: GameRow, pool: ratings.Pool) -> list[dict] | None:
    """Rate a finished game once, inside the transaction that saves it: both players' ratings in its
    pool move by Glicko-2 and each change is kept (`rating_changes`, keyed by game and player, so
    a game is never rated twice). Returns each side's change ({"before", "after", "deviation"}),
    or None if the game was rated before."""
    changes = RatingChangeRow.__table__
    if conn.execute(select(changes.c.game_id).where(changes.c.game_id == row.id).limit(1)).first():
        return None
    players = (row.player0_id, row.player1_id)
    table = RatingRow.__table__
    key = (table.c.variant == pool.variant) & (table.c.speed == pool.speed)
    found = [conn.execute(select(table).where(key & (table.c.player_id == pid)).with_for_update()).first()
             for pid in players]
    before = [Rating(r.rating, r.deviation, r.volatility) if r else Rating() for r in found]
    first_score = 0.5 if row.winner is None else float(row.winner == 0)
    after = ratings.after_game(before[0], before[1], first_score)
    at = row.updated_at
    for pid, old, new in zip(players, found, after):
        values = {"rating": new.rating, "deviation": new.deviation, "volatility": new.volatility, "updated_at": at}
        if old:
            conn.execute(update(table).where(key & (table.c.player_id == pid)).values(games=old.games + 1, **values))
        else:
            conn.execute(insert(table).values(player_id=pid, variant=pool.variant, speed=pool.speed, games=1, **values))
    conn.execute(insert(changes), [{"game_id": row.id, "player_id": pid, "variant": pool.variant, "speed": pool.speed,
                                    "before": old.rating, "after": new.rating, "deviation": new.deviation, "at": at}
                                   for pid, old, new in zip(players, before, after)])
    return [{"before": old.rating, "after": new.rating, "deviation": new.deviation} for old, new in zip(before, after)]


def new_token(nbytes: int = 24) -> str:
    return secrets.token_urlsafe(nbytes)


def token_digest(token: str) -> str:
    """What the sessions table keeps of a session token: a stolen database opens no session."""
    return hashlib.sha256(token.encode()).hexdigest()


DAY_MS = 86_400_000
# A session expires after this long unused (ms). A guest's identity is its cookie alone, so it lives
# longer; a guest who has no game is removed (with its sessions) after GUEST_WITHOUT_GAMES_MS unused.
ACCOUNT_SESSION_MS = 30 * DAY_MS
GUEST_SESSION_MS = 400 * DAY_MS
GUEST_WITHOUT_GAMES_MS = 7 * DAY_MS
SESSION_TOUCH_MS = DAY_MS  # how stale `last_seen` may get before a use writes it again
PURGE_BATCH = 500
PRESENCE_KEPT_MS = 60_000  # presence rows expired this long are deleted
DEAD_PROCESS_MS = 30_000  # a process whose row expired this long ago is dead: its follows are dropped
LEASE_MS = 3000  # a game's lease (`game_leases`) lasts this long unless its owner renews it


def wall_ms() -> int:
    """Leases and presence expire by the wall clock (shared by the processes), not by the games' clock."""
    return int(time.time() * 1000)


def _made_by(conn, game_id: str, process: str) -> None:
    """A game `process` makes, in the transaction that makes it: followed by it and leased to it,
    so no other process's sweep takes it over between the commit and the maker's next renewal."""
    conn.execute(insert(FollowerRow.__table__).values(game_id=game_id, process=process))
    conn.execute(insert(LeaseRow.__table__).values(game_id=game_id, owner=process, expires_at=wall_ms() + LEASE_MS))


def engine_url(url: str) -> str:
    """A database URL as SQLAlchemy opens it: PostgreSQL through psycopg 3 (`postgresql://` alone
    would mean psycopg2)."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


class Store:
    def __init__(self, url: str) -> None:
        """The store over the database at `url` (SQLite or PostgreSQL), its schema upgraded first."""
        url = engine_url(url)
        self.engine = create_engine(url, connect_args={"check_same_thread": False} if url.startswith("sqlite") else {})
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(conn, _record):  # durable yet fast enough for a move per commit
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()
        schema.upgrade(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        # game id -> its mutable columns as this store last committed them (games in play only)
        self._written: dict[str, tuple] = {}

    @classmethod
    def in_folder(cls, folder: str | Path) -> "Store":
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        return cls(f"sqlite:///{path / 'superchess.db'}")

    # -- players and sessions ---------------------------------------------------------------
    def add_player(self, name: str, password_hash: str | None, now: int) -> PlayerRow:
        with self.session() as s:
            row = PlayerRow(name=name, password_hash=password_hash, created_at=now)
            s.add(row)
            s.commit()
            return row

    def add_guest(self, names: Iterable[str], now: int) -> PlayerRow:
        """A new guest under the first of `names` that is free (taken at once by another: the next)."""
        for name in names:
            try:
                return self.add_player(name, None, now)
            except IntegrityError:
                continue
        raise ValueError("no free guest name")

    def bot(self, level: int, now: int) -> PlayerRow:
        """The computer player of `level` (made on first use)."""
        with self.session() as s:
            row = s.scalar(select(PlayerRow).where(PlayerRow.bot_level == level))
            if row is None:
                row = PlayerRow(name=f"Computer level {level}", password_hash=None, created_at=now, bot_level=level)
                s.add(row)
                s.commit()
            return row

    def player(self, player_id: int) -> PlayerRow | None:
        with self.session() as s:
            return s.get(PlayerRow, player_id)

    def player_by_name(self, name: str, any_case: bool = False) -> PlayerRow | None:
        column = func.lower(PlayerRow.name) if any_case else PlayerRow.name
        with self.session() as s:
            return s.scalar(select(PlayerRow).where(column == (name.lower() if any_case else name)).limit(1))

    def update_player(self, player_id: int, **fields) -> PlayerRow:
        with self.session() as s:
            row = s.get(PlayerRow, player_id)
            for k, v in fields.items():
                setattr(row, k, v)
            s.commit()
            return row

    def add_session(self, player_id: int, now: int) -> str:
        """A new session of the player: its token (for the cookie; only its digest is stored)."""
        token = new_token()
        with self.session() as s:
            s.add(SessionRow(token=token_digest(token), player_id=player_id, created_at=now, last_seen=now))
            s.commit()
        return token

    def session_player(self, token: str, now: int) -> tuple[PlayerRow, bool] | None:
        """The player of an unexpired session, and whether this use renewed it (then its cookie may
        be renewed too); None for an unknown or expired token (an expired session is dropped)."""
        with self.session() as s:
            row = s.get(SessionRow, token_digest(token))
            player = s.get(PlayerRow, row.player_id) if row else None
            if player is None:
                return None
            last_seen = now if row.last_seen is None else row.last_seen
            lifetime = GUEST_SESSION_MS if player.password_hash is None else ACCOUNT_SESSION_MS
            if now - last_seen > lifetime:
                s.delete(row)
                s.commit()
                return None
            renewed = row.last_seen is None or now - row.last_seen > SESSION_TOUCH_MS
            if renewed:
                row.last_seen = now
                s.commit()
            return player, renewed

    def drop_session(self, token: str) -> None:
        with self.session() as s:
            s.execute(delete(SessionRow).where(SessionRow.token == token_digest(token)))
            s.commit()

    def drop_sessions(self, player_id: int) -> int:
        """Every session of the player (log out everywhere); how many there were."""
        with self.session() as s:
            count = s.execute(delete(SessionRow).where(SessionRow.player_id == player_id)).rowcount
            s.commit()
            return count

    def purge(self, now: int) -> tuple[int, int]:
        """Drop expired sessions, and guests without a game (or saved roster) unused for
        GUEST_WITHOUT_GAMES_MS; sessions from before expiry count as used now. In short
        transactions of at most PURGE_BATCH rows. Returns (sessions, guests) dropped."""
        sessions = SessionRow.__table__
        with self.engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.last_seen.is_(None)).values(last_seen=now))
        accounts = select(PlayerRow.id).where(PlayerRow.password_hash.is_not(None))
        expired = [sessions.c.last_seen < now - GUEST_SESSION_MS,
                   (sessions.c.last_seen < now - ACCOUNT_SESSION_MS) & sessions.c.player_id.in_(accounts)]
        dropped_sessions = sum(self._delete_in_batches(sessions, sessions.c.token, condition) for condition in expired)
        cutoff = now - GUEST_WITHOUT_GAMES_MS
        player = PlayerRow.id
        idle_guests = ((PlayerRow.password_hash.is_(None)) & PlayerRow.bot_level.is_(None)
                       & (PlayerRow.created_at < cutoff)
                       & ~exists().where(SessionRow.player_id == player, SessionRow.last_seen >= cutoff)
                       & ~exists().where(or_(GameRow.creator_id == player, GameRow.player0_id == player,
                                             GameRow.player1_id == player, GameRow.invited_id == player))
                       & ~exists().where(SavedRosterRow.player_id == player)
                       & ~exists().where(SeekRow.creator_id == player))
        players = PlayerRow.__table__
        guest_sessions = sessions.c.player_id.in_(select(player).where(idle_guests))
        without_sessions = idle_guests & ~exists().where(SessionRow.player_id == player)
        dropped_sessions += self._delete_in_batches(sessions, sessions.c.token, guest_sessions)
        return dropped_sessions, self._delete_in_batches(players, players.c.id, without_sessions)

    def _delete_in_batches(self, table, key, condition) -> int:
        dropped = 0
        batch = delete(table).where(key.in_(select(key).where(condition).limit(PURGE_BATCH)))
        while True:
            with self.engine.begin() as conn:
                count = conn.execute(batch).rowcount
            dropped += count
            if count < PURGE_BATCH:
                return dropped

    # -- games ------------------------------------------------------------------------------
    def add_game(self, row: GameRow) -> None:
        with self.session() as s:
            s.add(row)
            s.commit()

    def game(self, game_id: str) -> GameRow | None:
        with self.session() as s:
            return s.get(GameRow, game_id)

    def game_by_token(self, token: str) -> GameRow | None:
        with self.session() as s:
            return s.scalar(select(GameRow).where(GameRow.invite_token == token))

    def moves(self, game_id: str) -> list[str]:
        with self.session() as s:
            return list(s.scalars(select(MoveRow.text).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)))

    def read_game(self, game_id: str, follower: str | None = None) -> tuple[GameRow, list[str]] | None:
        """A game's row and moves, read in one transaction; None if there is no such game. With
        `follower` (a process's name, PostgreSQL) the process follows the game from this version on:
        its row is registered with the game's row locked, so a save committed after this read
        finds it (and notifies it) and a save this read waited for is in what it reads."""
        with self.session() as s:
            query = select(GameRow).where(GameRow.id == game_id)
            row = s.scalar(query.with_for_update(read=True) if follower is not None else query)
            if row is None:
                return None
            if follower is not None:
                table = FollowerRow.__table__
                s.execute(pg_insert(table).values(game_id=game_id, process=follower).on_conflict_do_nothing())
            moves = list(s.scalars(select(MoveRow.text).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)))
            s.commit()
            return row, moves

    def save_games(self, batch: list[GameSave | tuple], process: str | None = None,
                   publish: Callable[[GameSave], tuple[str, str] | None] | None = None) -> Saved:
        """Write several games' states (and each one's new move, if any) in one transaction: the hub
        groups the events of one moment into one commit. Plain UPDATE and INSERT statements: the
        rows are already known to exist, so no ORM merge round trip. Only the columns that changed
        since this store last wrote the row are set (a move changes the clocks and the version; an
        UPDATE that sets every column costs SQLite twice as much, foreign keys checked again). A new
        move without text, `(ply, None, at)`, takes back the moves from that ply on (a retracted move
        of a drafted turn, a takeback). A game a save makes (`GameSave.new_game`) is added, and a rated game found
        finished is rated (`_rate`), in the same transaction. Returns the rating changes made, by
        game id (`_rate`).

        With `process` (several processes over one PostgreSQL: the saving process's name) each
        game's stored version must be the one before its row's, read with the row locked: a game
        another process wrote first is left out of the transaction and named among the `stale`
        games returned (its caller reloads it). A game this save makes is `process`'s (`_made_by`).
        `publish(save)` gives a (channel, payload) notification to send on commit (PostgreSQL's
        NOTIFY: delivered with the commit, in commit order), for the games another process follows
        (`read_game`): nobody else holds a copy of the others."""
        saves = [GameSave(*entry) for entry in batch]
        if self.shared and process is not None and saves and all(map(_pipelinable, saves)):
            saved = self._save_pipelined(saves, process, publish)
            if saved is not None:
                return saved
        stale: dict[str, int] = {}
        with self.engine.begin() as conn:
            if process is not None:
                stale = self._stale(conn, saves)
                for game_id in stale:
                    self._written.pop(game_id, None)
                saves = [save for save in saves if save.row.id not in stale]
            changes, written = self._write(conn, saves, process)
            if publish is not None and saves:
                followed = self._followed_elsewhere(conn, [save.row.id for save in saves], process)
                notes = [note for note in map(publish, [s for s in saves if s.row.id in followed]) if note is not None]
                if notes:
                    conn.execute(_NOTIFY_ALL, {"channels": [c for c, _ in notes], "payloads": [p for _, p in notes]})
        self._remember(written)
        return Saved(changes, stale)

    def _save_pipelined(self, saves: list[GameSave], process: str,
                        publish: Callable[[GameSave], tuple[str, str] | None] | None) -> Saved | None:
        """`save_games` on PostgreSQL for the usual batch (no game made, none rated) in two round
        trips instead of one per statement: the rows locked and their versions read, the writes and
        the follower lookup go to the server in one pipeline (psycopg's), then the notifications
        and the commit. The versions are checked before the commit: if any game was written
        elsewhere first, or the pipeline fails, the transaction is rolled back and None returned,
        nothing written, for the caller to take the statement-by-statement path (which leaves the
        stale games out, or raises the error)."""
        writes = self._writes(saves)
        ids = [save.row.id for save in saves]
        with self.engine.connect() as conn:
            raw = conn.connection.driver_connection
            try:
                with raw.pipeline() as pipeline:
                    locked = raw.execute(_psycopg_sql(_PG_LOCKED_VERSIONS), {"ids": ids})
                    for columns, params in writes.updates.items():
                        raw.execute(_psycopg_sql(_pg_update_games(columns)), _columns_of(params))
                    if writes.dropped:
                        with raw.cursor() as cursor:
                            cursor.executemany(_psycopg_sql(_DELETE_MOVE), writes.dropped)
                    if writes.moves:
                        raw.execute(_psycopg_sql(_PG_INSERT_MOVES), _columns_of(writes.moves))
                    followed = raw.execute(_psycopg_sql(_PG_FOLLOWED_ELSEWHERE), {"ids": ids, "process": process}) \
                        if publish is not None else None
                    pipeline.sync()
                    stored = dict(locked.fetchall())
                    if any(stored.get(save.row.id) != save.row.version - 1 for save in saves):
                        raw.rollback()
                        return None
                    if followed is not None:
                        elsewhere = {game_id for game_id, in followed.fetchall()}
                        notes = [note for note in map(publish, [s for s in saves if s.row.id in elsewhere])
                                 if note is not None]
                        if notes:
                            raw.execute(_psycopg_sql(_NOTIFY_ALL), {"channels": [c for c, _ in notes],
                                                                    "payloads": [p for _, p in notes]})
                raw.commit()
            except psycopg.Error:
                if raw.broken:
                    conn.invalidate()  # the pool must not hand out a dead connection
                    raise
                raw.rollback()
                return None
        self._remember(writes.written)
        return Saved({}, {})

    @staticmethod
    def _stale(conn, saves: list[GameSave]) -> dict[str, int]:
        """The games of `saves` whose stored version is not the one before theirs, with the stored
        version; their rows locked until the transaction ends."""
        expected = {save.row.id: save.row.version - 1 for save in saves}
        if not expected:
            return {}
        stored = dict(conn.execute(_LOCKED_VERSIONS, {"ids": list(expected)}).all())
        return {game_id: stored.get(game_id, -1) for game_id, version in expected.items()
                if stored.get(game_id) != version}

    @staticmethod
    def _followed_elsewhere(conn, game_ids: list[str], process: str | None) -> set[str]:
        """Which of these games a process other than `process` follows. A statement of its own,
        after the rows were locked (`_stale`): it sees every follower registered before."""
        return set(conn.scalars(_FOLLOWED_ELSEWHERE, {"ids": game_ids, "process": process}))

    def _write(self, conn, saves: list[GameSave],
               process: str | None = None) -> tuple[dict[str, list[dict]], list[tuple[str, tuple, bool]]]:
        """`save_games`'s statements, in the caller's transaction: the rating changes made, and what
        each game's row will hold once committed (`_remember`)."""
        writes = self._writes(saves)
        changes = {}
        for columns, params in writes.updates.items():
            conn.execute(_update_game(columns), params)
        if writes.dropped:
            conn.execute(_DELETE_MOVE, writes.dropped)
        if writes.moves:
            conn.execute(_INSERT_MOVE, writes.moves)
        for row, _, pool, new_game in saves:
            if new_game is not None:
                with Session(conn) as s:
                    s.add(new_game)
                    s.flush()
                    s.expunge(new_game)
                if process is not None:
                    _made_by(conn, new_game.id, process)
            if pool is not None and row.status == "finished":
                change = _rate(conn, row, pool)
                if change:
                    changes[row.id] = change
        return changes, writes.written

    def _writes(self, saves: list[GameSave]) -> _Writes:
        """The row writes of a group commit: only the columns that changed since this store last
        wrote each game (`_written`), the moves added and taken back."""
        updates: dict[tuple[str, ...], list[dict]] = {}
        written = []
        moves = []
        dropped = []
        for row, new_move, _, new_game in saves:
            values = _mutable_values(row)
            before = self._written.get(row.id)
            changed = _MUTABLE_GAME_COLUMNS if before is None else \
                tuple([c for c, now, then in zip(_MUTABLE_GAME_COLUMNS, values, before) if now != then])
            if changed:
                params = {c: v for c, v in zip(_MUTABLE_GAME_COLUMNS, values) if c in changed}
                params["game_id"] = row.id
                updates.setdefault(changed, []).append(params)
            written.append((row.id, values, row.status in _FINAL_STATUSES))
            if new_game is not None:
                written.append((new_game.id, _mutable_values(new_game), False))
            if new_move and new_move[1] is None:
                dropped.append({"game_id": row.id, "ply": new_move[0]})
            elif new_move:
                ply, text, at = new_move
                moves.append({"game_id": row.id, "ply": ply, "text": text, "at": at})
        return _Writes(updates, dropped, moves, written)

    def _remember(self, written: list[tuple[str, tuple, bool]]) -> None:
        """Committed: what the database now holds of these games."""
        for game_id, values, final in written:
            if final:
                self._written.pop(game_id, None)
            else:
                self._written[game_id] = values

    def forget(self, game_id: str) -> None:
        """The game was (or may have been) written by another process: the next save writes every
        column of it."""
        self._written.pop(game_id, None)

    def games_of(self, player_id: int) -> list[GameRow]:
        with self.session() as s:
            q = select(GameRow).where((GameRow.player0_id == player_id) | (GameRow.player1_id == player_id)
                                      | (GameRow.creator_id == player_id) | (GameRow.invited_id == player_id))
            return list(s.scalars(q.order_by(GameRow.updated_at.desc()).limit(200)))

    def active_game_ids(self) -> list[str]:
        """Games whose clock or set-up deadline runs."""
        with self.session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status.in_(("active", "setup")))))

    # -- leases (several processes) -----------------------------------------------------------
    def take_leases(self, owner: str, now: int, ttl_ms: int, game_ids: list[str] | None = None) -> set[str]:
        """Take for `owner` the leases of `game_ids` (or of every game in play) that nobody holds or
        whose lease expired by `now`; renew those it holds (a game claimed as it starts is held
        before its start is saved); drop its leases of games that are over. The leases other
        processes hold are not touched (nor locked). PostgreSQL. The games it holds now."""
        everything = """(status IN ('active', 'setup') OR EXISTS (
            SELECT 1 FROM game_leases mine WHERE mine.game_id = games.id AND mine.owner = :owner))"""
        statement = text("""
            INSERT INTO game_leases (game_id, owner, expires_at)
            SELECT id, CAST(:owner AS varchar), :until FROM games WHERE """ +
                         ("id = ANY(:ids)" if game_ids is not None else everything) + """
            AND NOT EXISTS (SELECT 1 FROM game_leases held WHERE held.game_id = games.id
                            AND held.owner <> :owner AND held.expires_at >= :now)
            ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
            WHERE game_leases.expires_at < :now OR game_leases.owner = excluded.owner
            RETURNING game_id""")
        with self.engine.begin() as conn:
            conn.execute(text("""DELETE FROM game_leases USING games WHERE game_leases.owner = :owner
                                 AND games.id = game_leases.game_id AND games.status IN :over""").bindparams(
                bindparam("over", expanding=True)), {"owner": owner, "over": list(_FINAL_STATUSES)})
            return set(conn.scalars(statement, {"owner": owner, "until": now + ttl_ms, "now": now,
                                                "ids": game_ids}))

    def notify(self, channel: str, payload: str) -> None:
        """Send a notification to the processes listening on `channel` (PostgreSQL's NOTIFY)."""
        with self.engine.begin() as conn:
            conn.execute(_NOTIFY, {"channel": channel, "payload": payload})

    # -- presence (several processes) --------------------------------------------------------
    def touch_presence(self, owner: str, player_id: int, until: int) -> None:
        """`owner` has the player on the site until `until` (ms since the epoch). PostgreSQL."""
        table = PresenceRow.__table__
        statement = pg_insert(table).values(player_id=player_id, owner=owner, expires_at=until)
        with self.engine.begin() as conn:
            conn.execute(statement.on_conflict_do_update(index_elements=[table.c.player_id, table.c.owner],
                                                         set_={"expires_at": until}))

    def renew_presence(self, owner: str, player_ids: list[int], until: int) -> None:
        """The players `owner` has on the site stay present at least until `until`. PostgreSQL."""
        table = PresenceRow.__table__
        if not player_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(update(table).where((table.c.owner == owner) & table.c.player_id.in_(player_ids))
                         .values(expires_at=func.greatest(table.c.expires_at, until)))

    def drop_absent_seeks(self, now: int) -> list[str]:
        """Delete the real-time seeks whose creator no process has on the site at `now` (and the
        presence rows long expired); their ids. Of processes doing this at once, each seek is
        reported by one."""
        presence = PresenceRow.__table__
        seeks = SeekRow.__table__
        present = exists().where((presence.c.player_id == seeks.c.creator_id) & (presence.c.expires_at > now))
        with self.engine.begin() as conn:
            conn.execute(delete(presence).where(presence.c.expires_at < now - PRESENCE_KEPT_MS))
            return list(conn.scalars(delete(seeks).where(seeks.c.expires_at.is_(None) & ~present)
                                     .returning(seeks.c.id)))

    # -- chat -------------------------------------------------------------------------------
    def add_chat_line(self, line: ChatLineRow, note: tuple[str, str] | None = None) -> None:
        """Keep a chat line; `note`: a (channel, payload) notification sent with its commit."""
        with self.engine.begin() as conn:
            conn.execute(insert(ChatLineRow.__table__).values(
                game_id=line.game_id, room=line.room, author=line.author, side=line.side, text=line.text, at=line.at))
            if note is not None:
                conn.execute(_NOTIFY, {"channel": note[0], "payload": note[1]})

    def chat_lines(self, game_id: str, room: str, most: int) -> list[ChatLineRow]:
        """The last `most` lines of a game's chat room, oldest first."""
        with self.session() as s:
            newest = s.scalars(select(ChatLineRow).where(ChatLineRow.game_id == game_id, ChatLineRow.room == room)
                               .order_by(ChatLineRow.id.desc()).limit(most))
            return list(newest)[::-1]

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self.engine.connect() as conn:
            conn.execute(select(1))

    @property
    def shared(self) -> bool:
        """Is this a database several server processes may share (PostgreSQL)?"""
        return self.engine.dialect.name == "postgresql"

    # -- followers (several processes) --------------------------------------------------------
    def unfollow(self, game_id: str, process: str) -> None:
        """The process no longer holds a copy of the game (`read_game` follows it again)."""
        table = FollowerRow.__table__
        with self.engine.begin() as conn:
            conn.execute(delete(table).where((table.c.game_id == game_id) & (table.c.process == process)))

    def count_watchers(self, game_id: str, process: str, watchers: int,
                       note: Callable[[int], tuple[str, str]]) -> int:
        """`watchers` watch the game through `process` (which follows it); returns how many watch it
        through every process. When that changed, the (channel, payload) `note(total)` is sent with
        the commit. The game's follower rows are locked first, so of two processes counting at once
        the second counts the first's change, and the last notification has the whole count."""
        table = FollowerRow.__table__
        mine = (table.c.game_id == game_id) & (table.c.process == process)
        with self.engine.begin() as conn:
            conn.execute(select(table.c.process).where(table.c.game_id == game_id)
                         .order_by(table.c.process).with_for_update())
            changed = conn.execute(update(table).where(mine & (table.c.watchers != watchers))
                                   .values(watchers=watchers)).rowcount
            total = conn.scalar(select(func.coalesce(func.sum(table.c.watchers), 0)).where(table.c.game_id == game_id))
            if changed:
                channel, payload = note(total)
                conn.execute(_NOTIFY, {"channel": channel, "payload": payload})
        return total

    def beat(self, process: str, now: int, until: int) -> bool:
        """The process lives until `until`; the follows of processes dead since `DEAD_PROCESS_MS`
        are dropped. False if this process had been found dead (its follows are gone: it must
        read its games again)."""
        processes, followers = ProcessRow.__table__, FollowerRow.__table__
        with self.engine.begin() as conn:
            known = conn.execute(update(processes).where(processes.c.process == process)
                                 .values(expires_at=until)).rowcount
            if not known:
                conn.execute(pg_insert(processes).values(process=process, expires_at=until)
                             .on_conflict_do_update(index_elements=[processes.c.process], set_={"expires_at": until}))
            dead = select(processes.c.process).where(processes.c.expires_at < now - DEAD_PROCESS_MS)
            conn.execute(delete(followers).where(followers.c.process.in_(dead)))
            conn.execute(delete(processes).where(processes.c.expires_at < now - DEAD_PROCESS_MS))
        return bool(known)

    def drop_process(self, process: str) -> None:
        """A process stopping: its follows and its row go."""
        with self.engine.begin() as conn:
            conn.execute(delete(FollowerRow.__table__).where(FollowerRow.__table__.c.process == process))
            conn.execute(delete(ProcessRow.__table__).where(ProcessRow.__table__.c.process == process))

    def renew_leases(self, owner: str, until: int) -> None:
        """Extend every lease `owner` holds until `until` (ms since the epoch)."""
        table = LeaseRow.__table__
        with self.engine.begin() as conn:
            conn.execute(update(table).where(table.c.owner == owner).values(expires_at=until))

    def drop_leases(self, owner: str, game_ids: Iterable[str] | None = None) -> None:
        """Give up `owner`'s leases (of `game_ids`, or all): another process may take them at once."""
        table = LeaseRow.__table__
        condition = table.c.owner == owner
        if game_ids is not None:
            condition &= table.c.game_id.in_(list(game_ids))
        with self.engine.begin() as conn:
            conn.execute(delete(table).where(condition))

    # -- saved rosters ----------------------------------------------------------------------
    def rosters_of(self, player_id: int) -> list[SavedRosterRow]:
        with self.session() as s:
            q = select(SavedRosterRow).where(SavedRosterRow.player_id == player_id)
            return list(s.scalars(q.order_by(SavedRosterRow.name)))

    def save_roster(self, player_id: int, name: str, variant: str, roster: str, now: int) -> SavedRosterRow:
        with self.session() as s:
            row = s.scalar(select(SavedRosterRow).where(SavedRosterRow.player_id == player_id,
                                                        SavedRosterRow.name == name))
            if row is None:
                row = SavedRosterRow(player_id=player_id, name=name)
                s.add(row)
            row.variant, row.roster, row.updated_at = variant, roster, now
            s.commit()
            return row

    def delete_roster(self, player_id: int, name: str) -> bool:
        with self.session() as s:
            row = s.scalar(select(SavedRosterRow).where(SavedRosterRow.player_id == player_id,
                                                        SavedRosterRow.name == name))
            if row is None:
                return False
            s.delete(row)
            s.commit()
            return True

    # -- the lobby's seeks ------------------------------------------------------------------
    def add_seek(self, row: SeekRow, most: int, now: int) -> bool:
        """Add the seek unless its creator has `most` open seeks already (False then). Counted with
        the creator's row locked, so that two creations at once cannot both pass."""
        with self.session() as s:
            s.execute(select(PlayerRow.id).where(PlayerRow.id == row.creator_id).with_for_update())
            count = s.scalar(select(func.count()).select_from(SeekRow)
                             .where(SeekRow.creator_id == row.creator_id, _seek_open(now)))
            if count >= most:
                return False
            s.add(row)
            s.commit()
            return True

    def open_seeks(self, now: int, seek_id: str | None = None, pool: str | None = None) -> list:
        """Open seeks, oldest first (or the one with `seek_id`, or those of a quick pairing pool),
        each with its creator's name, whether the creator has an account, and the creator's rating
        in the seek's pool (None: not rated there yet): rows of (seek, name, account, rating, deviation)."""
        q = (select(SeekRow, PlayerRow.name, PlayerRow.password_hash.is_not(None).label("account"),
                    RatingRow.rating, RatingRow.deviation)
             .join(PlayerRow, PlayerRow.id == SeekRow.creator_id)
             .outerjoin(RatingRow, and_(RatingRow.player_id == SeekRow.creator_id,
                                        RatingRow.variant == SeekRow.rating_variant, RatingRow.speed == SeekRow.speed))
             .where(_seek_open(now)))
        if seek_id is not None:
            q = q.where(SeekRow.id == seek_id)
        if pool is not None:
            q = q.where(SeekRow.pool == pool)
        with self.session() as s:
            return list(s.execute(q.order_by(SeekRow.created_at, SeekRow.id)))

    def take_seek(self, seek_id: str, game: GameRow, process: str | None = None) -> bool:
        """Close the seek and add the game it became, in one transaction (with `process`, the
        accepting process of several: the game is its own, `_made_by`); False (nothing changed)
        if the seek was gone: of two acceptances at once, exactly one makes a game."""
        with self.engine.begin() as conn:
            if conn.execute(delete(SeekRow.__table__).where(SeekRow.__table__.c.id == seek_id)).rowcount != 1:
                return False
            with Session(conn) as s:
                s.add(game)
                s.flush()
                s.expunge(game)
            if process is not None:
                _made_by(conn, game.id, process)
        return True

    def drop_seek(self, seek_id: str) -> bool:
        with self.engine.begin() as conn:
            return conn.execute(delete(SeekRow.__table__).where(SeekRow.__table__.c.id == seek_id)).rowcount == 1

    def drop_real_time_seeks(self, player_id: int) -> list[str]:
        """Delete the player's real-time seeks (the player left the site); their ids."""
        return self._drop_seeks((SeekRow.creator_id == player_id) & SeekRow.expires_at.is_(None))

    def drop_expired_seeks(self, now: int) -> list[str]:
        """Delete the Daily seeks expired by `now`; their ids."""
        return self._drop_seeks(SeekRow.expires_at <= now)

    def _drop_seeks(self, condition) -> list[str]:
        with self.engine.begin() as conn:
            ids = list(conn.scalars(select(SeekRow.id).where(condition)))
            if ids:
                conn.execute(delete(SeekRow.__table__).where(SeekRow.__table__.c.id.in_(ids)))
            return ids

    def real_time_seekers(self) -> set[int]:
        """The creators of real-time seeks (they last while their creator is on the site)."""
        with self.session() as s:
            return set(s.scalars(select(SeekRow.creator_id).where(SeekRow.expires_at.is_(None)).distinct()))

    # -- ratings ----------------------------------------------------------------------------
    def rating(self, player_id: int, pool: ratings.Pool) -> RatingRow | None:
        with self.session() as s:
            return s.get(RatingRow, (player_id, pool.variant, pool.speed))

    def rating_changes(self, game_id: str) -> dict[int, RatingChangeRow]:
        """What a rated game did to its players' ratings, by player id (empty: not rated)."""
        with self.session() as s:
            return {r.player_id: r for r in s.scalars(select(RatingChangeRow).where(RatingChangeRow.game_id == game_id))}


def _seek_open(now: int):
    """The condition of a seek still open at `now` (a Daily seek expires)."""
    return or_(SeekRow.expires_at.is_(None), SeekRow.expires_at > now)
