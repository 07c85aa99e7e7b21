"""The live games: one lock per game so its events are processed one at a time, persistence before
announcement, per-viewer broadcast to websocket connections, and clock timers.

With several processes over one PostgreSQL (`cluster.py`) a game's copy here may be behind the
database: each save checks the stored version (a game another process wrote first is reloaded and
the action tried again on it), other processes' events arrive as notifications (`remote_event`:
reloaded, sent to the viewers here), and only the process holding a game's lease runs its timer
and its computer player."""
from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict, defaultdict
from typing import TYPE_CHECKING, Callable

from . import ratings, variants
from .chat import PLAYERS, WATCHERS, Chats
from .glicko2 import Rating
from .live import ActionError, LiveGame, NewMove
from .offload import Offload
from .store import GameRow, GameSave, Store, row_at

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("superchess.server")

#: events per database transaction at most; one commit costs about as much as a few saved moves
GROUP_COMMIT = 16
#: games without a running clock that nobody watches, kept in memory (most recently used first)
IDLE_KEPT = 64
#: an action another process overtook waits at most this long (s) for the notification of what
#: overtook it to reach the viewers here before it is tried again
HEARD_S = 1.0


class StaleGame(Exception):
    """Another process saved an event of this game first (the database holds `version`): nothing
    of this one was saved."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


class _Unfinished:
    """A send that had to wait (the transport pushed back): awaiting this finishes it. It yields the
    future the send is waiting on, so the awaiting task suspends on it, then resumes the send."""

    def __init__(self, coro, waiting_on) -> None:
        self.coro = coro
        self.waiting_on = waiting_on

    def __await__(self):
        waiting_on = self.waiting_on
        while True:
            try:
                yield waiting_on
            except BaseException as e:  # the writer was cancelled: pass it on to the send
                try:
                    waiting_on = self.coro.throw(e)
                except StopIteration:
                    return
                continue
            try:
                waiting_on = self.coro.send(None)
            except StopIteration:
                return


class Connection:
    """One websocket viewer. A message is handed to the socket at once when nothing is waiting
    before it (a send that needs no waiting never yields), so a game's broadcast leaves at its commit
    instead of after every task the event loop has queued by then; otherwise it joins this
    connection's queue, which its writer task empties in order, so a slow client never holds up a
    game."""

    def __init__(self, send_text: Callable, player_id: int | None) -> None:
        self.send_text = send_text
        self.player_id = player_id
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.sending = False  # the writer is in the middle of a send
        self.closed = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._writer())

    async def _writer(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                self.sending = True
                await (item if isinstance(item, _Unfinished) else self.send_text(item))
                self.sending = False
        except Exception:  # the socket closed: the reader side cleans up
            self.closed = True

    def send(self, message: dict | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        if self.closed:
            return
        if self.sending or not self.queue.empty() or self.task is None:
            self.queue.put_nowait(text)
            return
        coro = self.send_text(text)
        try:
            waiting_on = coro.send(None)
        except StopIteration:
            return
        except Exception:  # the socket closed: the reader side cleans up
            self.closed = True
            return
        self.queue.put_nowait(_Unfinished(coro, waiting_on))  # the writer finishes it, before the rest

    def close(self) -> None:
        if self.task:
            self.task.cancel()


class Hub:
    def __init__(self, store: Store, now: Callable[[], int]) -> None:
        self.store = store
        self.now = now
        self.live: dict[str, LiveGame] = {}
        self.locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.conns: defaultdict[str, set[Connection]] = defaultdict(set)
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.announced: dict[str, int] = {}  # game id -> the version last sent to its viewers here
        self._hearing: dict[str, list] = {}  # game id -> (version, future) of actions waiting for it (`_heard`)
        self._idle: OrderedDict[str, None] = OrderedDict()  # evictable games, least recently used first
        self._players: dict[int, dict] = {}  # player id -> colour and bot level
        self.ai = None  # AIPlayers, when the computer plays on this server
        self.cluster: Cluster | None = None  # the other processes over the same database, if any
        self.chats = Chats(store, now)
        self._sharing: set[asyncio.Task] = set()  # spectator counts being written (`_share_spectators`)
        self.offload = Offload()  # where the rules work of every event runs, off the event loop
        self.loop: asyncio.AbstractEventLoop | None = None
        # events saved but not yet committed: (game, event, time, new move, the caller's future)
        self._batch: list[tuple[LiveGame, dict, int, tuple | None, asyncio.Future]] = []

    # -- loading ----------------------------------------------------------------------------
    def game(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory (every game in progress is: loaded at start-up or when it
        started); `load` brings back one that is not."""
        return self.live.get(game_id)

    async def load(self, game_id: str) -> LiveGame | None:
        """The game, read from the database and replayed off the event loop if it is not in memory;
        None if there is no such game. Call it without holding the game's lock."""
        g = self.live.get(game_id)
        if g is None:
            async with self.locks[game_id]:
                g = await self._load(game_id)
            self._evict_if_done(game_id)
        return g

    async def _load(self, game_id: str) -> LiveGame | None:
        """`load` for a caller that holds the game's lock."""
        g = self.live.get(game_id)
        if g is None:
            # off the loop: with several processes the read waits for a commit that holds the row
            found = await asyncio.to_thread(self.store.read_game, game_id,
                                            None if self.cluster is None else self.cluster.owner)
            if found is None:
                return None
            g = self.live[game_id] = await self.offload.run(self._replay, *found)
        return g

    def _replay(self, row: GameRow, moves: list[str]) -> LiveGame:
        """A stored game as the server holds it, its states ready to send."""
        names = {pid: self.store.player(pid).name for pid in (row.player0_id, row.player1_id) if pid}
        self.store.forget(row.id)  # what was read is what the next save compares with
        g = LiveGame(row, moves, names, self.now(), continuing=self.cluster is not None)
        g.show_ratings(self.ratings_view(row))
        g.prepare()
        return g

    def ratings_view(self, row: GameRow) -> list[dict] | None:
        """A rated game's players' ratings as its state shows them: what its end did to them once
        it is rated, else their ratings in its pool now (`ratings.side_view`); None if casual."""
        if not row.rated or row.player0_id is None or row.player1_id is None:
            return None
        changes = self.store.rating_changes(row.id) if row.status == "finished" else {}
        pool = ratings.pool_of(row.variant, row.mode, row.time_control)
        view = []
        for pid in (row.player0_id, row.player1_id):
            change = changes.get(pid)
            if change:
                view.append(ratings.side_view(change.after, change.deviation, change.before))
            else:
                now = self.store.rating(pid, pool) or Rating()
                view.append(ratings.side_view(now.rating, now.deviation))
        return view

    def resume(self) -> None:
        """After a (re)start: load every game in progress, then run their clocks from the moment the
        loading is over (the last step of the start-up: loading is not the players' time) and arm
        their timers."""
        self.loop = asyncio.get_running_loop()  # for callers on other threads (tests)
        if self.cluster is not None:  # the games are taken over lease by lease (`take_over`)
            return
        games = []
        for game_id in self.store.active_game_ids():
            g = self.live[game_id] = self._replay(*self.store.read_game(game_id))
            games.append(g)
        ready = self.now()
        for g in games:
            g.resume(ready)
            self._schedule(g)
            if self.ai:  # the computer's games go on
                self.ai.consider(g)

    def colour_changed(self, player_id: int, colour: str | None) -> None:
        self._player_facts(player_id)["colour"] = colour

    def bot_level(self, player_id: int | None) -> int | None:
        return self._player_facts(player_id)["bot_level"] if player_id is not None else None

    def _colour(self, player_id: int | None) -> str | None:
        return self._player_facts(player_id)["colour"] if player_id is not None else None

    def _player_facts(self, player_id: int) -> dict:
        """What every broadcast asks about a player, read from the database once."""
        facts = self._players.get(player_id)
        if facts is None:
            p = self.store.player(player_id)
            facts = self._players[player_id] = {"colour": p.colour if p else None,
                                                 "bot_level": p.bot_level if p else None}
        return facts

    # -- events -----------------------------------------------------------------------------
    async def act(self, game_id: str, player_id: int | None, action: str, payload: dict) -> dict:
        """Process one action on a game; raises ActionError (nothing changed) or LookupError. An
        action that another process's event overtook is tried once more on the game as it now is
        (where it usually meets the refusal it would have met after that event), once the viewers
        here have been sent what overtook it."""
        for attempt in (1, 2):
            async with self.locks[game_id]:
                g = await self._load(game_id)
                if g is None:
                    raise LookupError("no such game")
                now = self.now()
                try:
                    return await self._event(g, lambda: g.apply(action, g.side_of(player_id), payload, now), now)
                except StaleGame as e:
                    if attempt == 2:
                        raise ActionError("the game changed meanwhile; please try again") from None
                    overtaken_by = e.version
            await self._heard(game_id, overtaken_by)

    async def start_game(self, game_id: str, player0: int, player1: int) -> None:
        async with self.locks[game_id]:
            g = await self._load(game_id)
            if g.row.status != "waiting":
                raise ActionError("this invitation is no longer open")
            for pid in (player0, player1):
                g.names[pid] = self.store.player(pid).name
            now = self.now()
            if self.cluster is not None:
                self.cluster.claim(game_id)
            try:
                await self._event(g, lambda: self._start(g, player0, player1, now), now)
            except StaleGame:  # accepted or withdrawn through another process meanwhile
                raise ActionError("this invitation is no longer open") from None

    def _start(self, g: LiveGame, player0: int, player1: int, now: int) -> dict:
        event = g.start(player0, player1, now)
        g.show_ratings(self.ratings_view(g.row))
        return event

    async def decline(self, game_id: str) -> None:
        async with self.locks[game_id]:
            g = await self._load(game_id)
            if g.row.status != "waiting":
                raise ActionError("this invitation is no longer open")
            try:
                await self._event(g, g.decline, self.now())
            except StaleGame:
                raise ActionError("this invitation is no longer open") from None

    async def _event(self, g: LiveGame, change: Callable[[], dict], now: int) -> dict:
        """One event of the game at `now`: the change made (`_change`), then persisted and announced
        (`_commit`); the event, or the change's exception with nothing changed. The caller holds
        the game's lock."""
        event, new_move = await self._change(g, change)
        await self._commit(g, event, (*new_move, now) if new_move else None, now)
        return event

    async def _change(self, g: LiveGame, change: Callable[[], dict]) -> tuple[dict, NewMove]:
        """Run a change of the game (which returns its event, or raises and changes nothing) and
        build the new version's shared states: the event, and how the stored moves change
        (`LiveGame.new_move`). Play in variants whose listing is quick (a few milliseconds at most)
        runs here; set-ups (which compile rosters) and searched listings run off the event loop. The
        caller holds the game's lock, so nothing else reads or changes the game meanwhile."""
        def run() -> tuple[dict, NewMove]:
            plies = len(g.game.board.move_stack)
            event = change()
            g.bump_version()
            g.prepare()
            return event, g.new_move(plies)
        if g.row.status == "active" and not variants.searched_listing(g.game.board.variant):
            return run()
        return await self.offload.run(run)

    async def _commit(self, g: LiveGame, event: dict, saved_move: tuple[int, str | None, int] | None,
                      now: int) -> None:
        """Persist the game, with the move it gained or lost (`Store.save_games`), then announce the
        event. The events of different games that arrive in the same turn of the event loop share
        one database transaction (group commit), up to `GROUP_COMMIT` events: a full batch is
        committed and announced at once, so under load the first moves of a busy turn do not wait
        for the last ones. Each caller waits for its own, holding its game's lock, so a game's
        events stay one at a time. The event's version is already counted (`_change`)."""
        loop = asyncio.get_running_loop()
        if not self._batch:
            loop.call_soon(self._flush)
        done = loop.create_future()
        self._batch.append((g, event, now, saved_move, done))
        if len(self._batch) >= GROUP_COMMIT:
            self._flush()
        await done

    def _flush(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:  # a full batch was committed before this scheduled flush came round
            return
        events = {g.row.id: event for g, event, *_ in batch}
        try:
            saved = self.store.save_games(
                [self._save(g, now, new_move) for g, _, now, new_move, _ in batch],
                None if self.cluster is None else self.cluster.owner,
                None if self.cluster is None else lambda save: self.cluster.game_note(save, events[save.row.id]))
        except Exception:
            log.exception("could not save games %s", [g.row.id for g, *_ in batch])
            for g, *_, done in batch:
                self.live.pop(g.row.id, None)  # memory ran ahead of the database: reload from it
                if not done.done():
                    done.set_exception(ActionError("the server could not save that; please try again"))
            return
        rated = saved.changes
        if saved.stale:  # another process wrote these games first: their callers reload and retry
            for g, *_, done in batch:
                if g.row.id in saved.stale:
                    self.live.pop(g.row.id, None)
                    done.set_exception(StaleGame(saved.stale[g.row.id]))
            batch = [entry for entry in batch if entry[0].row.id not in saved.stale]
        for g, *_ in batch:
            if g.row.id in rated:
                g.show_ratings([ratings.side_view(c["after"], c["deviation"], c["before"]) for c in rated[g.row.id]])
            if g.spawned is not None:
                self.adopt(g.spawned)
                g.spawned = None
        # whoever must act now hears first, across the whole batch; then everyone else
        failed: dict[asyncio.Future, Exception] = {}
        for first in (True, False):
            for g, event, now, _, done in batch:
                if done in failed:
                    continue
                try:
                    self._broadcast(g, event, now, first)
                    if not first:
                        self._served(g)
                except Exception as e:  # one game's trouble is its caller's, not the batch's
                    failed[done] = e
        for *_, done in batch:
            if not done.done():
                if done in failed:
                    done.set_exception(failed[done])
                else:
                    done.set_result(None)

    @staticmethod
    def _save(g: LiveGame, now: int, new_move: tuple | None) -> GameSave:
        """What the group commit writes of a game: its row and new move; its pool if it is rated and
        over (the store rates it once); the rematch it started."""
        row = g.sync_row(now)
        pool = ratings.pool_of(row.variant, row.mode, row.time_control) if row.rated and row.status == "finished" \
            else None
        return GameSave(row, new_move, pool, g.spawned.sync_row(now) if g.spawned else None)

    def _served(self, g: LiveGame) -> None:
        """After an event of the game: its timer set and the computer asked to act, by the process
        that owns the game; kept in memory or not."""
        if self.cluster is None or self.cluster.owns(g.row.id):
            self._schedule(g)
            if self.ai:
                self.ai.consider(g)
        self._evict_if_done(g.row.id)

    def adopt(self, g: LiveGame) -> None:
        """A game made here by another event (an accepted seek, a rematch) and saved, leased to this
        process by that save: served from here on."""
        g.show_ratings(self.ratings_view(g.row))
        self.live[g.row.id] = g
        if self.cluster is not None:
            self.cluster.made(g.row.id)
        self._served(g)

    # -- other processes (cluster.py) --------------------------------------------------------
    async def remote_event(self, game_id: str, version: int, event: dict | None, values: dict | None,
                           new_move: list | None) -> None:
        """Another process committed `version` of the game (its row's `values` and its `new_move`,
        `[ply, text or None]`, when the notification carries them): the copy here follows it when
        someone here watches the game or this process owns it (its timer and computer player
        follow), the viewers here receive the new state; otherwise the copy is dropped (`load` reads
        it again). Notifications come in commit order, so the viewers here see every version."""
        if self.announced.get(game_id, -1) >= version:
            return
        if not self.conns.get(game_id) and not self.cluster.owns(game_id):
            self.live.pop(game_id, None)
            self._cancel_timer(game_id)
            async with self.locks[game_id]:  # not while `_load` reads it again (and follows it)
                if game_id not in self.live:
                    await asyncio.to_thread(self.store.unfollow, game_id, self.cluster.owner)
            return
        async with self.locks[game_id]:
            if self.announced.get(game_id, -1) >= version:
                return
            g = await self._follow(game_id, version, values, new_move)
            if g is None:
                return
            now = self.now()
            event = event if g.row.version == version else None  # a later version: its event is on its way
            for first in (True, False):
                self._broadcast(g, event, now, first)
            self._served(g)

    async def _follow(self, game_id: str, version: int, values: dict | None,
                      new_move: list | None) -> LiveGame | None:
        """The game at `version`, built from the copy here at the version before and the new
        version's row and move; when there is no such copy (or the notification was too large to
        carry them), the game as the database holds it now. The caller holds the game's lock."""
        old = self.live.get(game_id)
        if values is None or old is None or old.row.version != version - 1:
            self.live.pop(game_id, None)
            return await self._load(game_id)
        moves = [m.text for m in old.game.board.move_stack]
        if new_move is not None:
            ply, text = new_move
            moves = moves[:ply] + ([text] if text is not None else [])
        row = row_at(old.row, values)

        def build() -> LiveGame:
            names = {pid: old.names.get(pid) or self.store.player(pid).name
                     for pid in (row.player0_id, row.player1_id) if pid}
            self.store.forget(game_id)  # another process wrote it: the next save here writes every column
            g = LiveGame(row, moves, names, self.now(), continuing=True)
            g.show_ratings(old.ratings if row.status == old.row.status else self.ratings_view(row))
            g.prepare()
            return g
        g = self.live[game_id] = await self.offload.run(build)
        return g

    async def remote_chat(self, game_id: str, room: str, line: dict) -> None:
        """Another process kept a chat line of the game: sent to the connections here that read its room."""
        if not self.conns.get(game_id):
            return
        g = self.live.get(game_id) or await self.load(game_id)
        if g is not None:
            self._tell_room(g, room, line)

    async def _heard(self, game_id: str, version: int) -> None:
        """Wait (at most HEARD_S) until the viewers here have been sent `version` of the game by its
        notification (`remote_event`, with its event), if any viewer is here."""
        if not self.conns.get(game_id) or self.announced.get(game_id, -1) >= version:
            return
        heard = asyncio.get_running_loop().create_future()
        self._hearing.setdefault(game_id, []).append((version, heard))
        try:
            await asyncio.wait_for(heard, HEARD_S)
        except TimeoutError:  # the notification is late: the retry reads the game anyway
            pass

    async def take_over(self, game_ids: list[str]) -> None:
        """This process now owns these games (their owner died, or nobody had them): each is read
        from the database, then their clocks run again from the moment all are loaded (loading is
        not the players' time), an event every process hears: nobody is charged for the time no
        process served them. Then their timers and computer players run here."""
        loaded = []
        for game_id in game_ids:
            async with self.locks[game_id]:
                self.live.pop(game_id, None)
                g = await self._load(game_id)
                if g is not None and g.row.status in ("active", "setup"):
                    loaded.append(g)
        ready = self.now()
        for g in loaded:
            async with self.locks[g.row.id]:
                if self.live.get(g.row.id) is not g:  # another process's event came meanwhile
                    continue
                try:
                    await self._event(g, lambda: g.resumed(ready), ready)
                except StaleGame:  # an event came through another process first: that one counts
                    self.live.pop(g.row.id, None)

    def disown(self, game_id: str) -> None:
        """Another process took the game's lease: its timer is no longer this process's."""
        self._cancel_timer(game_id)

    def _broadcast(self, g: LiveGame, event: dict, now: int, to_move: bool) -> None:
        """Send the new state to the viewers who are (`to_move`) or are not the player to move."""
        if g.row.id in self.conns:
            self.announced[g.row.id] = g.row.version
            waiting = self._hearing.pop(g.row.id, ())
            for version, heard in waiting:
                if version <= g.row.version and not heard.done():
                    heard.set_result(None)
            if any(not heard.done() for _, heard in waiting):
                self._hearing[g.row.id] = [(v, heard) for v, heard in waiting if not heard.done()]
        # viewers who see the same thing (a side, or watching, with the same colour) share one encoding
        encoded: dict[tuple, str] = {}
        turn = g.game.board.turn if g.row.status == "active" else None
        for conn in list(self.conns.get(g.row.id, ())):
            side = g.side_of(conn.player_id)
            if (side is not None and side == turn) != to_move:
                continue
            key = (side, self._colour(conn.player_id) if side is not None else None)
            if key not in encoded:
                encoded[key] = self.message(g, conn.player_id, now, event)
            conn.send(encoded[key])

    def message(self, g: LiveGame, player_id: int | None, now: int, event: dict | None = None) -> str:
        """The `state` message for one viewer, as JSON text."""
        state = g.state_json(g.side_of(player_id), now, self._colour(player_id))
        event = g.visible_event(g.side_of(player_id), event)
        tail = f',"event":{json.dumps(event, separators=(",", ":"))}' if event else ""
        return f'{{"type":"state","version":{g.row.version},"state":{state}{tail}}}'

    def state(self, g: LiveGame, player_id: int | None, now: int) -> dict:
        """The state one viewer may see, as a dict (the HTTP endpoint)."""
        return g.state(g.side_of(player_id), now, self._colour(player_id))

    # -- connections ------------------------------------------------------------------------
    async def join(self, game_id: str, conn: Connection) -> bool:
        """Add a viewer and send it the current state; False if there is no such game."""
        g = await self.load(game_id)
        if g is None:
            return False
        rooms = self._rooms_heard(g, conn)
        heard = await asyncio.to_thread(lambda: [(room, self.chats.history(game_id, room)) for room in rooms])
        async with self.locks[game_id]:
            self.conns[game_id].add(conn)
            conn.send(self.message(g, conn.player_id, self.now()))
            self.announced[game_id] = max(self.announced.get(game_id, -1), g.row.version)
            for room, lines in heard:
                if lines:
                    conn.send({"type": "chat", "room": room, "lines": lines})
        watching = g.side_of(conn.player_id) is None
        self._count_spectators(game_id, None if watching else conn)
        return True

    # -- the page's chat and spectators -----------------------------------------------------
    @staticmethod
    def _rooms_heard(g: LiveGame, conn: Connection) -> tuple[str, ...]:
        """Everyone reads the players' room; only those who are not playing read the watchers'."""
        return (PLAYERS,) if g.side_of(conn.player_id) is not None else (PLAYERS, WATCHERS)

    async def chat(self, game_id: str, conn: Connection, text: object) -> None:
        """A chat line from a game's page: into the players' room from a player, the watchers' room
        from anyone else; sent to every connection that reads the room. ChatError if refused."""
        g = await self.load(game_id)
        if g is None:
            raise LookupError("no such game")
        side = g.side_of(conn.player_id)
        room = PLAYERS if side is not None else WATCHERS
        player = await asyncio.to_thread(self.store.player, conn.player_id) if conn.player_id is not None else None
        note = None if self.cluster is None else lambda line: self.cluster.chat_note(game_id, room, line)
        row = self.chats.line(game_id, room, conn.player_id if player else id(conn),
                              player.name if player else "Anonymous", side, text)
        async with self.locks[game_id]:  # stored and sent in one order
            self._tell_room(g, room, await asyncio.to_thread(self.chats.keep, row, note))

    def _tell_room(self, g: LiveGame, room: str, line: dict) -> None:
        """Send a new chat line to every connection here that reads its room."""
        message = json.dumps({"type": "chat", "room": room, "lines": [line]}, separators=(",", ":"))
        for other in list(self.conns.get(g.row.id, ())):
            if room in self._rooms_heard(g, other):
                other.send(message)

    def _count_spectators(self, game_id: str, only: Connection | None = None) -> None:
        """Tell a game's pages how many are watching it (connections of others than its players):
        all of them when a watcher came or went, or `only` a player's page that just joined (when
        someone watches: a page counts none until told). With several processes the count is of
        all of them (`_share_spectators`)."""
        if self.cluster is not None:
            task = asyncio.create_task(self._share_spectators(game_id, only))
            self._sharing.add(task)
            task.add_done_callback(self._sharing.discard)
        elif (here := self._spectators_here(game_id)) is not None:
            self.tell_spectators(game_id, here, only)

    def _spectators_here(self, game_id: str) -> int | None:
        g = self.live.get(game_id)
        return None if g is None else sum(1 for c in self.conns.get(game_id, ()) if g.side_of(c.player_id) is None)

    async def _share_spectators(self, game_id: str, only: Connection | None) -> None:
        """Count this process's watchers of the game into the database (counted in the game's order,
        so the last count written is the newest), then tell the pages here the count of all."""
        async with self.locks[game_id]:
            here = self._spectators_here(game_id) or 0  # no copy here (dropped): nobody watches here
            try:
                total = await asyncio.to_thread(self.store.count_watchers, game_id, self.cluster.owner, here,
                                                lambda total: self.cluster.spectators_note(game_id, total))
            except Exception:  # the database is away: the pages keep the count they have
                log.exception("could not count the watchers of game %s", game_id)
                return
        self.tell_spectators(game_id, total, only)

    def tell_spectators(self, game_id: str, count: int, only: Connection | None = None) -> None:
        """Send the pages of the game here (or `only` that one, if someone watches) the count."""
        conns = self.conns.get(game_id, ())
        if only is not None and (not count or only not in conns):
            return
        message = json.dumps({"type": "spectators", "count": count})
        for c in [only] if only is not None else list(conns):
            c.send(message)

    async def view(self, game_id: str, player_id: int | None, as_message: bool = False) -> dict | str | None:
        """The state one viewer may see now (the `state` message text with `as_message`), read
        between the game's events; None if there is no such game."""
        g = await self.load(game_id)
        if g is None:
            return None
        async with self.locks[game_id]:
            return self.message(g, player_id, self.now()) if as_message else self.state(g, player_id, self.now())

    def leave(self, game_id: str, conn: Connection) -> None:
        self.conns[game_id].discard(conn)
        conn.close()
        if not self.conns[game_id]:
            del self.conns[game_id]
            self.announced.pop(game_id, None)
        g = self.live.get(game_id)
        if g is not None and g.side_of(conn.player_id) is None:  # a watcher went
            self._count_spectators(game_id)
        self._evict_if_done(game_id)

    def _evict_if_done(self, game_id: str) -> None:
        """Games without a running clock (over, or waiting for an opponent) that nobody watches are
        kept in memory only among the `IDLE_KEPT` most recently used; the database has all of them
        and `load()` brings one back on demand."""
        g = self.live.get(game_id)
        if g is None or g.row.status in ("setup", "active") or self.conns.get(game_id):
            self._idle.pop(game_id, None)
            return
        self._idle[game_id] = None
        self._idle.move_to_end(game_id)
        while len(self._idle) > IDLE_KEPT:
            old, _ = self._idle.popitem(last=False)
            lock = self.locks.get(old)
            if lock is not None and lock.locked():  # in use right now: keep it
                continue
            self.live.pop(old, None)
            self.locks.pop(old, None)

    # -- clocks -----------------------------------------------------------------------------
    def _cancel_timer(self, game_id: str) -> None:
        old = self.timers.pop(game_id, None)
        if old:
            old.cancel()

    def _schedule(self, g: LiveGame) -> None:
        self._cancel_timer(g.row.id)
        deadline = g.deadline()
        if deadline is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        delay = max(0.0, (deadline - self.now()) / 1000)
        self.timers[g.row.id] = loop.call_later(delay, lambda: asyncio.ensure_future(self._expire(g.row.id)))

    async def _expire(self, game_id: str) -> None:
        try:
            await self.act(game_id, None, "timeout", {})
        except ActionError:  # a move came first, or the injected clock says otherwise
            g = self.live.get(game_id)
            if g:
                self._schedule(g)

    async def check_clocks(self) -> None:
        """Apply every time-out (and end of a Private set-up) due by now, for tests that move an
        injected clock."""
        for game_id, g in list(self.live.items()):
            if g.expired(self.now()):
                try:
                    await self.act(game_id, None, "timeout", {})
                except ActionError:
                    pass
