"""Persistence behind a small repository: players, sessions, games and their moves.

SQLAlchemy 2 models; SQLite in the data folder is the default, any SQLAlchemy URL (PostgreSQL)
works the same. A move is committed here before the server announces it.
"""
from __future__ import annotations

import hashlib
import secrets
from functools import lru_cache
from pathlib import Path

from sqlalchemy import (BigInteger, ForeignKey, Integer, String, Text, UniqueConstraint, bindparam, create_engine,
                        delete, event, exists, func, insert, inspect, or_, select, text, update)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


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


class SavedRosterRow(Base):
    __tablename__ = "rosters"
    __table_args__ = (UniqueConstraint("player_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    variant: Mapped[str] = mapped_column(String(20))
    roster: Mapped[str] = mapped_column(Text)  # text form (rules.program.Roster.text)
    updated_at: Mapped[int] = mapped_column(BigInteger)


class MoveRow(Base):
    __tablename__ = "moves"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(16))
    at: Mapped[int] = mapped_column(BigInteger)


# what changes after a game row is created
_MUTABLE_GAME_COLUMNS = ("status", "player0_id", "player1_id", "result", "termination", "winner", "claimed",
                         "draw_offer", "remaining0", "remaining1", "version", "updated_at", "roster0", "roster1",
                         "submitted0", "submitted1", "setup_deadline", "prelude", "start_fen", "turn_started_at")


_FINAL_STATUSES = ("finished", "aborted", "declined")


@lru_cache(maxsize=64)
def _update_game(columns: tuple[str, ...]):
    """The UPDATE of these columns of one game row, built once per column set: constructing
    SQLAlchemy statements per move costs more than executing them."""
    return update(GameRow.__table__).where(GameRow.__table__.c.id == bindparam("game_id")).values(
        {c: bindparam(c) for c in columns})


_INSERT_MOVE = insert(MoveRow.__table__)
_DELETE_MOVE = delete(MoveRow.__table__).where((MoveRow.__table__.c.game_id == bindparam("game_id"))
                                               & (MoveRow.__table__.c.ply == bindparam("ply")))


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


class Store:
    def __init__(self, url: str) -> None:
        self.engine = create_engine(url, connect_args={"check_same_thread": False} if url.startswith("sqlite") else {})
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(conn, _record):  # durable yet fast enough for a move per commit
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()
        Base.metadata.create_all(self.engine)
        self._add_missing_columns()
        self._hash_plaintext_tokens()
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        # game id -> its mutable columns as this store last committed them (games in play only)
        self._written: dict[str, tuple] = {}

    def _add_missing_columns(self) -> None:
        """A database made by an earlier version gains the columns added since (all have defaults)."""
        inspector = inspect(self.engine)
        with self.engine.begin() as conn:
            for table in Base.metadata.sorted_tables:
                have = {c["name"] for c in inspector.get_columns(table.name)}
                for col in table.columns:
                    if col.name not in have:
                        default = col.default.arg if col.default is not None else None
                        ddl = f"ALTER TABLE {table.name} ADD COLUMN {col.name} {col.type.compile(self.engine.dialect)}"
                        if default is not None:
                            ddl += f" DEFAULT {default!r}" if isinstance(default, str) else f" DEFAULT {default}"
                        conn.execute(text(ddl))

    def _hash_plaintext_tokens(self) -> None:
        """Sessions from before tokens were hashed keep working: their tokens are replaced by
        their digests (a digest is 64 hex digits; the tokens were 32 characters)."""
        table = SessionRow.__table__
        with self.engine.begin() as conn:
            plain = conn.scalars(select(table.c.token).where(func.length(table.c.token) != 64)).all()
            if plain:
                conn.execute(update(table).where(table.c.token == bindparam("plain")).values(token=bindparam("digest")),
                             [{"plain": t, "digest": token_digest(t)} for t in plain])

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
                       & ~exists().where(SavedRosterRow.player_id == player))
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

    def save_games(self, batch: list[tuple[GameRow, tuple[int, str, int] | None]]) -> None:
        """Write several games' states (and each one's new move, if any) in one transaction: the hub
        groups the events of one moment into one commit. Plain UPDATE and INSERT statements: the
        rows are already known to exist, so no ORM merge round trip. Only the columns that changed
        since this store last wrote the row are set (a move changes the clocks and the version; an
        UPDATE that sets every column costs SQLite twice as much, foreign keys checked again). A new
        move without text, `(ply, None, at)`, takes back the move at that ply (a retracted move of
        a drafted turn)."""
        updates: dict[tuple[str, ...], list[dict]] = {}
        written = []
        moves = []
        dropped = []
        for row, new_move in batch:
            # a loaded row's attributes are in its __dict__; reading them there skips SQLAlchemy's
            # instrumentation, which cost more than the UPDATE (unset ones take the ORM's default)
            loaded = row.__dict__
            values = tuple([loaded[c] if c in loaded else getattr(row, c) for c in _MUTABLE_GAME_COLUMNS])
            before = self._written.get(row.id)
            changed = _MUTABLE_GAME_COLUMNS if before is None else \
                tuple([c for c, now, then in zip(_MUTABLE_GAME_COLUMNS, values, before) if now != then])
            if changed:
                params = {c: v for c, v in zip(_MUTABLE_GAME_COLUMNS, values) if c in changed}
                params["game_id"] = row.id
                updates.setdefault(changed, []).append(params)
            written.append((row.id, values, row.status in _FINAL_STATUSES))
            if new_move and new_move[1] is None:
                dropped.append({"game_id": row.id, "ply": new_move[0]})
            elif new_move:
                ply, text, at = new_move
                moves.append({"game_id": row.id, "ply": ply, "text": text, "at": at})
        with self.engine.begin() as conn:
            for columns, params in updates.items():
                conn.execute(_update_game(columns), params)
            if dropped:
                conn.execute(_DELETE_MOVE, dropped)
            if moves:
                conn.execute(_INSERT_MOVE, moves)
        for game_id, values, final in written:  # committed: what the database now holds
            if final:
                self._written.pop(game_id, None)
            else:
                self._written[game_id] = values

    def games_of(self, player_id: int) -> list[GameRow]:
        with self.session() as s:
            q = select(GameRow).where((GameRow.player0_id == player_id) | (GameRow.player1_id == player_id)
                                      | (GameRow.creator_id == player_id) | (GameRow.invited_id == player_id))
            return list(s.scalars(q.order_by(GameRow.updated_at.desc()).limit(200)))

    def active_game_ids(self) -> list[str]:
        """Games whose clock or set-up deadline runs."""
        with self.session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status.in_(("active", "setup")))))

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
