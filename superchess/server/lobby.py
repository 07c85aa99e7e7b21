"""The lobby: open seeks (matches anyone may accept), quick pairing, and who is on the site.

Seeks are rows of the database (`store.SeekRow`): creating one, cancelling it and accepting it are
single transactions, so two acceptances at once make exactly one game, whichever process serves
them. What the lobby keeps in memory is derived: the websocket connections it tells of each change
(one message, encoded once, to every watcher) and the players present on the site.

A player is present while any websocket of theirs is open: the lobby's, a game page's, or another
page's presence socket. A real-time seek lasts while its creator is present: when their last
socket closes and none opens within `grace_s`, their real-time seeks are dropped. A Daily seek
lasts until it is accepted, cancelled or DAILY_SEEK_MS old.

With several processes over one PostgreSQL (`cluster.py`) presence is shared: each process keeps
a row per player it has on the site (renewed while a socket of theirs is open there, left to
expire `grace_s` after the last one closes), and every process drops, every `ABSENT_EVERY_S`, the
real-time seeks of players no process has (`drop_absent`): those of a dead process's players too,
once its rows expire."""
from __future__ import annotations

import asyncio
import json
import logging
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Callable

from . import ratings, variants
from .clock import TIME_CONTROLS
from .glicko2 import Rating
from .hub import Connection, Hub
from .live import LiveGame
from .store import DAY_MS, LEASE_MS, GameRow, PlayerRow, SeekRow, Store, new_token, waiting_game, wall_ms
from .throttle import Throttle

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("superchess.server")

GRACE_S = 5.0  # a real-time seek outlives its creator's last open tab by this long
STARTUP_GRACE_S = 30.0  # after a (re)start, the time its creators have to come back
MAX_OPEN_SEEKS = 5  # per player
DAILY_SEEK_MS = 14 * DAY_MS
SWEEP_EVERY_S = 60  # expired Daily seeks are dropped this often
ABSENT_EVERY_S = 1.0  # with several processes: the seeks of players no process has are dropped this often
# seek creations per client address, per window in ms (creating and cancelling in a loop would
# otherwise flood every watcher)
SEEKS_PER_CLIENT = (30, 60_000)


class SeekRefused(Exception):
    """A refused seek request: the HTTP status and the one-sentence reason; nothing changed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class QuickPool:
    """A quick pairing pool: one click joins it (lobby.toml)."""
    id: str
    variant: str
    time_control: str


def _load_pools() -> dict[str, QuickPool]:
    data = tomllib.loads(resources.files(__package__).joinpath("lobby.toml").read_text())
    pools = [QuickPool(f"{p['variant']}-{p['time_control']}", p["variant"], p["time_control"]) for p in data["pool"]]
    for p in pools:
        if not variants.known(p.variant) or p.time_control not in TIME_CONTROLS:
            raise ValueError(f"lobby.toml: pool {p.id} names an unknown variant or time control")
    return {p.id: p for p in pools}


POOLS = _load_pools()


class Lobby:
    def __init__(self, store: Store, hub: Hub, now: Callable[[], int], grace_s: float = GRACE_S) -> None:
        self.store, self.hub, self.now, self.grace_s = store, hub, now, grace_s
        self.watchers: set[Connection] = set()  # the lobby's websockets: every change of the seeks
        # player id -> their open websockets, each with whether it hears lobby messages (a game
        # page's socket only counts the player present)
        self.present: defaultdict[int, dict[Connection, bool]] = defaultdict(dict)
        self._leaving: dict[int, asyncio.TimerHandle] = {}
        self.creations = Throttle(*SEEKS_PER_CLIENT, now)
        self._sweeping: list[asyncio.Task] = []
        self.cluster: Cluster | None = None  # the other processes over the same database, if any

    # -- start-up and shutdown --------------------------------------------------------------
    def resume(self) -> None:
        """After a (re)start: the creators of real-time seeks have STARTUP_GRACE_S to come back,
        and expired Daily seeks are dropped regularly from now on. (With other processes, the
        shared presence says who is on the site: those no process has lose their seeks.)"""
        if self.cluster is None:
            for player_id in self.store.real_time_seekers():
                self._expect(player_id, STARTUP_GRACE_S)
        else:
            self._sweeping.append(asyncio.create_task(self._drop_absent_regularly()))
        self._sweeping.append(asyncio.create_task(self._sweep_regularly()))

    def close(self) -> None:
        """Stop the sweeps and timers. With other processes, the players here have STARTUP_GRACE_S
        to come back (through another process) before their real-time seeks end."""
        for task in self._sweeping:
            task.cancel()
        for timer in self._leaving.values():
            timer.cancel()
        if self.cluster is not None:
            self.cluster.keep_present(STARTUP_GRACE_S)

    async def _sweep_regularly(self) -> None:
        while True:
            self.sweep()
            await asyncio.sleep(SWEEP_EVERY_S)

    async def _drop_absent_regularly(self) -> None:
        while True:
            await asyncio.sleep(ABSENT_EVERY_S)
            try:
                await self.drop_absent()
            except Exception:  # the database is away: the next round tries again
                log.exception("could not drop the seeks of absent players")

    async def drop_absent(self) -> None:
        """Drop the real-time seeks of players no process has on the site (several processes)."""
        self._removed(await asyncio.to_thread(self.store.drop_absent_seeks, wall_ms()), "left")

    def sweep(self) -> None:
        """Drop the Daily seeks that are DAILY_SEEK_MS old."""
        self._removed(self.store.drop_expired_seeks(self.now()), "expired")

    # -- presence ---------------------------------------------------------------------------
    def enter(self, conn: Connection, watching: bool, hears_lobby: bool = True) -> None:
        """A websocket opened: `watching` the seeks (the lobby), and if it `hears_lobby`, told when
        a seek of its player becomes a game."""
        if watching:
            self.watchers.add(conn)
        if conn.player_id is not None:
            if self.cluster is not None and conn.player_id not in self.present:
                self.cluster.present_for(conn.player_id, LEASE_MS / 1000)  # renewed while here
            self.present[conn.player_id][conn] = hears_lobby
            timer = self._leaving.pop(conn.player_id, None)
            if timer:
                timer.cancel()

    def leave(self, conn: Connection) -> None:
        self.watchers.discard(conn)
        pid = conn.player_id
        if pid is None or conn not in self.present.get(pid, {}):
            return
        del self.present[pid][conn]
        if not self.present[pid]:
            del self.present[pid]
            self._expect(pid, self.grace_s)

    def _expect(self, player_id: int, delay_s: float) -> None:
        """Unless the player is present again within `delay_s`, their real-time seeks end (with
        other processes: unless some process has them then, `drop_absent`)."""
        if player_id in self.present or player_id in self._leaving:
            return
        if self.cluster is not None:
            self.cluster.present_for(player_id, delay_s)
            return
        self._leaving[player_id] = asyncio.get_running_loop().call_later(delay_s, self._gone, player_id)

    def _gone(self, player_id: int) -> None:
        self._leaving.pop(player_id, None)
        if player_id not in self.present:
            self._removed(self.store.drop_real_time_seeks(player_id), "left")

    # -- telling ----------------------------------------------------------------------------
    def _broadcast(self, message: dict) -> None:
        self.remote(message, None)
        if self.cluster is not None:
            self.cluster.lobby_note(message, None)

    def _tell(self, player_id: int, message: dict) -> None:
        self.remote(message, player_id)
        if self.cluster is not None:
            self.cluster.lobby_note(message, player_id)

    def remote(self, message: dict, player_id: int | None) -> None:
        """Send a lobby message to the watchers here (`player_id` None) or to that player's pages
        here: this process's, or another's (cluster.py)."""
        text = json.dumps(message)
        if player_id is None:
            for conn in list(self.watchers):
                conn.send(text)
            return
        for conn, hears in list(self.present.get(player_id, {}).items()):
            if hears:
                conn.send(text)

    def _removed(self, seek_ids: list[str], reason: str) -> None:
        if seek_ids:
            self._broadcast({"type": "seek_removed", "ids": seek_ids, "reason": reason})

    def listing(self) -> dict:
        """The `seeks` message: every open seek, oldest first."""
        return {"type": "seeks", "seeks": [seek_view(found) for found in self.store.open_seeks(self.now())]}

    # -- seeks ------------------------------------------------------------------------------
    def add(self, game: GameRow, rated: bool, rating_range: tuple[int, int] | None, pool: str | None = None) -> dict:
        """Open a seek with the settings of `game` (a validated match, not stored); its view."""
        now = self.now()
        daily = TIME_CONTROLS[game.time_control].daily
        if not daily:  # before the seek exists (nothing happens while the creator is present)
            self._expect(game.creator_id, self.grace_s)
        rating_pool = ratings.pool_of(game.variant, game.mode, game.time_control)
        row = SeekRow(id=new_token(9), creator_id=game.creator_id, variant=game.variant,
                      time_control=game.time_control, mode=game.mode, creator_side=game.creator_side,
                      start_fen=game.start_fen, roster=game.roster0 if game.mode == "symmetric" else None,
                      rated=int(rated), rating_min=rating_range[0] if rating_range else None,
                      rating_max=rating_range[1] if rating_range else None, rating_variant=rating_pool.variant,
                      speed=rating_pool.speed, pool=pool, created_at=now,
                      expires_at=now + DAILY_SEEK_MS if daily else None)
        if not self.store.add_seek(row, MAX_OPEN_SEEKS, now):
            raise SeekRefused(409, f"you have {MAX_OPEN_SEEKS} open seeks already: cancel one first")
        view = seek_view(self.store.open_seeks(now, seek_id=row.id)[0])
        self._broadcast({"type": "seek_added", "seek": view})
        return view

    def cancel(self, seek_id: str, player_id: int | None) -> None:
        found = self.store.open_seeks(self.now(), seek_id=seek_id)
        if not found:
            raise SeekRefused(404, "no such seek: it was accepted, cancelled or has expired")
        if found[0].SeekRow.creator_id != player_id:
            raise SeekRefused(403, "this seek is someone else's")
        if self.store.drop_seek(seek_id):
            self._removed([seek_id], "cancelled")

    def refuse_acceptor(self, seek_id: str, player: PlayerRow | None) -> SeekRow:
        """The open seek this player may accept, else SeekRefused saying why (checked before a
        guest identity is made for a visitor without one)."""
        found = self.store.open_seeks(self.now(), seek_id=seek_id)
        if not found:
            raise SeekRefused(404, "this seek is gone: it was accepted, cancelled or has expired")
        seek = found[0].SeekRow
        if player is not None and player.id == seek.creator_id:
            raise SeekRefused(400, "this is your own seek: wait for someone to accept it, or cancel it")
        account = player is not None and player.password_hash is not None
        if seek.rated and not account:
            raise SeekRefused(403, "rated games are between accounts: log in or register to accept this seek")
        if seek.rating_min is not None:
            if not account:
                raise SeekRefused(403, "this seek is for rated players in a rating range: guests have no rating")
            mine = round(self.rating_of(player.id, ratings.Pool(seek.rating_variant, seek.speed)).rating)
            if not seek.rating_min <= mine <= seek.rating_max:
                raise SeekRefused(403, f"this seek is for ratings {seek.rating_min}-{seek.rating_max}; yours is {mine}")
        return seek

    async def accept(self, seek: SeekRow, acceptor_id: int) -> str:
        """The seek becomes a game between its creator and the acceptor, started: the seek's end
        and the started game are one transaction (`Store.take_seek`). The creator's pages are told
        to go there. The game's id; SeekRefused if another took the seek first."""
        now = self.now()
        row = waiting_game(seek.variant, seek.time_control, seek.creator_id, seek.creator_side, now,
                           start_fen=seek.start_fen, mode=seek.mode, roster=seek.roster, rated=bool(seek.rated))
        setattr(row, f"player{seek.creator_side ^ 1}_id", acceptor_id)
        names = {pid: self.store.player(pid).name for pid in (seek.creator_id, acceptor_id)}
        game = await self.hub.offload.run(LiveGame.started, row, names, now)
        if not self.store.take_seek(seek.id, game.sync_row(now), None if self.cluster is None else self.cluster.owner):
            raise SeekRefused(404, "this seek is gone: someone else accepted it first")
        self.hub.adopt(game)
        self._removed([seek.id], "accepted")
        self._tell(seek.creator_id, {"type": "game_started", "game_id": row.id, "seek_id": seek.id})
        return row.id

    def rating_of(self, player_id: int, pool: ratings.Pool) -> Rating:
        """The player's rating in the pool (a new player's if they have none there)."""
        row = self.store.rating(player_id, pool)
        return Rating(row.rating, row.deviation, row.volatility) if row else Rating()

    # -- quick pairing ----------------------------------------------------------------------
    async def join_pool(self, pool: QuickPool, player: PlayerRow, game: GameRow) -> dict:
        """Pair the player with the closest-rated player waiting in the pool (`{"game_id"}`), or
        leave a seek of theirs there (`{"seek": view}`; joining again gives the same seek). An
        account's seek is rated; a guest's casual, and a guest pairs only with casual seeks.
        `game`: the pool's settings as a validated match of this player, should a seek be left."""
        account = player.password_hash is not None
        rating_pool = ratings.pool_of(pool.variant, "default", pool.time_control)
        mine = self.rating_of(player.id, rating_pool).rating if account else Rating().rating
        waiting = self.store.open_seeks(self.now(), pool=pool.id)
        own = [w for w in waiting if w.SeekRow.creator_id == player.id]
        if own:
            return {"seek": seek_view(own[0])}
        candidates = [w for w in waiting if account or not w.SeekRow.rated]
        candidates.sort(key=lambda w: abs((w.rating if w.rating is not None else Rating().rating) - mine))
        for candidate in candidates:
            try:
                return {"game_id": await self.accept(candidate.SeekRow, player.id)}
            except SeekRefused:  # taken meanwhile: the next closest
                continue
        return {"seek": self.add(game, account, None, pool.id)}


def seek_view(found) -> dict:
    """A seek as the lobby lists it, from a row of `Store.open_seeks`."""
    seek = found.SeekRow
    tc = TIME_CONTROLS[seek.time_control]
    rating = None
    if found.account:
        rating = ratings.shown(found.rating, found.deviation) if found.rating is not None \
            else ratings.shown(Rating().rating, Rating().deviation)
    return {"id": seek.id, "creator": {"name": found.name, "account": bool(found.account), "rating": rating},
            "variant": seek.variant, "time_control": {"id": tc.id, "name": tc.name}, "speed": seek.speed,
            "mode": seek.mode, "creator_side": seek.creator_side, "rated": bool(seek.rated),
            "rating_range": [seek.rating_min, seek.rating_max] if seek.rating_min is not None else None,
            "fen": seek.start_fen, "pool": seek.pool, "created_at": seek.created_at, "expires_at": seek.expires_at}
