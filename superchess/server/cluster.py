"""Several server processes over one PostgreSQL database, serving the same games.

- Ordering: each game's events are saved with a check of the stored version under a row lock
  (`Store.save_games(check_versions=True)`); of two events racing through two processes exactly
  one is saved, the other's process reloads the game and tries the action again (`Hub.act`).
- Fan-out: the save's transaction sends a PostgreSQL NOTIFY (delivered at its commit, in commit
  order) when another process follows the game (`game_followers`: it holds a copy, registered when
  it read the game); every process LISTENs on one connection (psycopg 3, asynchronous) and hands
  each other process's event to its hub (`Hub.remote_event`) and each lobby message to its lobby.
  A process drops a copy nobody there needs when its next notification comes, and unfollows it.
  Each process renews a row of its own (`server_processes`) with its leases; the follows of one
  dead for a while are dropped, and one found dead after a stall reads its games again.
- Ownership: a game in play is owned by one process through a lease (`game_leases`: owner and
  expiry), renewed every `RENEW_EVERY_S` by a thread of its own (so a busy event loop does not
  lose its games); only the owner runs the game's timer (flags, Daily and set-up deadlines) and
  its computer player. A lease not renewed for `LEASE_MS` (its process died) is taken over by the
  next sweep of another process (`Hub.take_over`).
- Presence: which process has which player on the site (`presence`: player, process, expiry),
  renewed by the same thread while the player has a socket open on this process, left to expire
  after the lobby's grace when the last one closes; a dead process's rows expire by themselves.
  A real-time seek ends when no process has its creator (`Lobby.drop_absent`).
- Chat lines are rows (`chat_lines`) whose insert notifies the other processes' viewers.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import TYPE_CHECKING

import psycopg

from .store import LEASE_MS, GameSave, Store, row_values, wall_ms

if TYPE_CHECKING:
    from .hub import Hub
    from .lobby import Lobby

log = logging.getLogger("superchess.server")

GAMES = "superchess_games"  # NOTIFY channel of the games' events
LOBBY = "superchess_lobby"  # NOTIFY channel of the lobby's messages
RENEW_EVERY_S = 1.0  # leases are renewed, and expired ones taken over, this often
MAX_NOTE = 7900  # bytes of a NOTIFY payload at most (PostgreSQL's limit is 8000)


class Cluster:
    def __init__(self, store: Store, hub: "Hub", lobby: "Lobby") -> None:
        self.store, self.hub, self.lobby = store, hub, lobby
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.owned: set[str] = set()
        self.listening = False  # the notification connection is up
        self._tasks: list[asyncio.Task] = []
        self._stop = threading.Event()
        self._renewer = threading.Thread(target=self._renew_forever, name="lease-renewer", daemon=True)
        self._presence_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="presence")
        url = store.engine.url
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        # how this process's own notifications begin (`game_note`, ...): skipped unparsed
        self._own_note = '{"o":' + json.dumps(self.owner) + ","

    # -- ownership --------------------------------------------------------------------------
    def owns(self, game_id: str) -> bool:
        return game_id in self.owned

    def claim(self, game_id: str) -> None:
        """Own a game this process starts (unless another owns it already)."""
        self.owned |= self.store.take_leases(self.owner, wall_ms(), LEASE_MS, [game_id])

    def made(self, game_id: str) -> None:
        """Own a game this process made: its lease was taken in the transaction that made it."""
        self.owned.add(game_id)

    async def _renew(self) -> None:
        """Renew this process's leases, take the expired and missing ones, and take over the games
        gained; stop timing the games lost (this process stalled past its leases)."""
        before = set(self.owned)
        try:
            held = await asyncio.to_thread(self.store.take_leases, self.owner, wall_ms(), LEASE_MS)
        except Exception:  # the database is away: the leases lapse, another process goes on
            log.exception("could not renew the game leases")
            held = set()
        held |= self.owned - before  # games claimed meanwhile (`claim`)
        gained, lost = held - self.owned, self.owned - held
        self.owned = held
        for game_id in lost:
            self.hub.disown(game_id)
        if gained:
            log.info("taking over games %s", sorted(gained))
            try:
                await self.hub.take_over(sorted(gained))
            except Exception:
                log.exception("could not take over games %s", sorted(gained))

    def _renew_forever(self) -> None:
        """The leases this process holds, and the presence of the players on the site through it,
        stay its own while it lives, however busy its loop."""
        while not self._stop.wait(RENEW_EVERY_S / 2):
            try:
                self.store.renew_leases(self.owner, wall_ms() + LEASE_MS)
                self._beat()
                self.keep_present(LEASE_MS / 1000)
            except Exception:  # the database is away: the leases lapse, another process goes on
                log.exception("could not renew the game leases and the players' presence")

    def _beat(self) -> None:
        """This process lives; if it had been found dead (stalled), its follows were dropped, so
        every game held here is read again (and followed) before it is next used."""
        now = wall_ms()
        if not self.store.beat(self.owner, now, now + LEASE_MS) and self.hub.loop is not None:
            log.warning("this process had been taken for dead: reading its games again")
            self.hub.loop.call_soon_threadsafe(self._resync)

    # -- presence ---------------------------------------------------------------------------
    def present_for(self, player_id: int, seconds: float) -> None:
        """The player is on the site through this process for `seconds` from now (renewed while a
        socket of theirs is open here). Written by a thread of its own, in call order, so that a
        socket opening or closing does not wait for the database."""
        if self._stop.is_set():  # stopping: `keep_present` gives everyone here their time to come back
            return
        until = wall_ms() + int(seconds * 1000)
        self._presence_writer.submit(self._touch_presence, player_id, until)

    def _touch_presence(self, player_id: int, until: int) -> None:
        try:
            self.store.touch_presence(self.owner, player_id, until)
        except Exception:  # the database is away: the renewals and the sweep go on without it
            log.exception("could not note the presence of player %s", player_id)

    def keep_present(self, seconds: float) -> None:
        """Every player on the site through this process stays present at least `seconds` from now
        (renewed while here; at a normal stop, the time they have to come back elsewhere)."""
        self.store.renew_presence(self.owner, list(self.lobby.present), wall_ms() + int(seconds * 1000))

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY_S)
            await self._renew()

    # -- notifications ----------------------------------------------------------------------
    def game_note(self, save: GameSave, event: dict | None) -> tuple[str, str]:
        """The notification of a game's new version (sent with its commit): its event, its row and
        its new move, from which another process's copy follows (`Hub.remote_event`)."""
        row = save.row
        new_move = save.new_move[:2] if save.new_move else None
        note = json.dumps({"o": self.owner, "g": row.id, "v": row.version, "e": event, "r": row_values(row),
                           "m": new_move}, separators=(",", ":"))
        if len(note.encode()) > MAX_NOTE:  # too large: the other processes read the game again
            note = json.dumps({"o": self.owner, "g": row.id, "v": row.version, "e": None}, separators=(",", ":"))
        return GAMES, note

    def chat_note(self, game_id: str, room: str, line: dict) -> tuple[str, str]:
        """The notification of a game's new chat line (a cleaned line fits: MAX_CHARS)."""
        return GAMES, json.dumps({"o": self.owner, "g": game_id, "c": room, "l": line}, separators=(",", ":"))

    def spectators_note(self, game_id: str, total: int) -> tuple[str, str]:
        """The notification of how many watch a game's page through every process."""
        return GAMES, json.dumps({"o": self.owner, "g": game_id, "w": total}, separators=(",", ":"))

    def lobby_note(self, message: dict, player_id: int | None) -> None:
        """Tell the other processes' lobbies (every watcher, or the pages of `player_id`)."""
        note = json.dumps({"o": self.owner, "m": message, "p": player_id}, separators=(",", ":"))
        self.store.notify(LOBBY, note)

    async def _connect(self) -> psycopg.AsyncConnection:
        conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        await conn.execute(f"LISTEN {GAMES}")
        await conn.execute(f"LISTEN {LOBBY}")
        return conn

    async def _listen(self, conn: psycopg.AsyncConnection) -> None:
        """Hand every notification to the hub or the lobby; reconnect when the connection breaks."""
        while True:
            self.listening = True
            try:
                async with conn:
                    async for note in conn.notifies():
                        if not note.payload.startswith(self._own_note):
                            self._dispatch(note.channel, json.loads(note.payload))
            except (psycopg.Error, OSError):
                log.exception("lost the notification connection; reconnecting")
            self.listening = False
            while True:
                await asyncio.sleep(1)
                try:
                    conn = await self._connect()
                    break
                except (psycopg.Error, OSError):
                    continue
            self._resync()

    def _dispatch(self, channel: str, note: dict) -> None:
        if note["o"] == self.owner:
            return
        if channel == GAMES and "w" in note:
            self.hub.tell_spectators(note["g"], note["w"])
        elif channel == GAMES:
            # one task per note: they reach the game's (first-come) lock in the order they came
            task = asyncio.create_task(self.hub.remote_chat(note["g"], note["c"], note["l"]) if "c" in note else
                                       self.hub.remote_event(note["g"], note["v"], note["e"], note.get("r"), note.get("m")))
            self._tasks.append(task)
            task.add_done_callback(self._tasks.remove)
        else:
            self.lobby.remote(note["m"], note["p"])

    def _resync(self) -> None:
        """(Re)connected: notifications may have been missed, so every game held here is read
        again before it is next used, and the viewers here get the newest state."""
        for game_id in list(self.hub.live):
            self._dispatch(GAMES, {"o": None, "g": game_id, "v": 1 << 62, "e": None})

    # -- life -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen, take the games nobody serves (at a start after a full stop: all of them), then
        keep the leases."""
        self._tasks.append(asyncio.create_task(self._listen(await self._connect())))
        await asyncio.to_thread(self.store.beat, self.owner, wall_ms(), wall_ms() + LEASE_MS)
        await self._renew()
        self._renewer.start()
        self._tasks.append(asyncio.create_task(self._keep_leases()))

    async def close(self) -> None:
        """Stop, handing the leases over at once (a stopped process's games need not wait for
        their leases to expire)."""
        self._stop.set()
        await asyncio.to_thread(self._presence_writer.shutdown)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with suppress(asyncio.CancelledError, Exception):
                await task
        with suppress(Exception):
            self.store.drop_leases(self.owner)
        with suppress(Exception):
            self.store.drop_process(self.owner)
