"""The computer as a player. Its moves take the same path as a human's (the hub validates, times
and saves them); the thinking runs in a worker process pool, never on the event loop, so a
thinking engine delays no other game.

In a Private game the computer knows its own roster only: it searches as if the opponent's pieces
moved by default, and chooses among exactly the moves the server would highlight for a human in
its place (the legal moves under the true rosters)."""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Callable

from ..engine import RETRACT, choose_move
from . import worker
from .live import OVER_STATUSES, ActionError, LiveGame

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("superchess.server")
LEVELS = range(1, 9)


def ready() -> bool:
    """A task that only waits for the worker's start-up (its initializer)."""
    return True


def default_executor() -> Executor:
    # one worker: the other core stays with the server; `spawn` because the server process has
    # threads and an event loop that a forked child must not inherit
    # the worker compiles the engine's tables once at start, not on the first move's clock, and
    # exits with the server, even one killed with SIGKILL
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=worker.start_worker,
                               initargs=(os.getpid(), True, worker.shared_stop_id()))


class AIPlayers:
    def __init__(self, hub: "Hub", executor_factory: Callable[[], Executor] = default_executor,
                 think: Callable[..., str] = choose_move) -> None:
        self.hub = hub
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._think = think
        self._busy: dict[str, int] = {}  # game id -> version being thought about
        self._searches: dict[str, tuple[int, int, asyncio.Future]] = {}  # game id -> (version, search id, answer)
        self.tasks: set[asyncio.Task] = set()

    def warm(self) -> asyncio.Future:
        """Start the worker now; the future is done when it is warm (its initializer compiles the
        engine's tables and searches once per variant), after which the first move is as quick as
        any other. The worker warms up in its own process while the server starts up."""
        if self._executor is None:
            self._executor = self._factory()
        return asyncio.wrap_future(self._executor.submit(ready))

    def consider(self, g: LiveGame) -> None:
        """After every committed event: a search for an earlier version of the game stops; if the
        computer is to act in this game, it starts."""
        row = g.row
        search = self._searches.get(row.id)
        if search is not None and search[0] != row.version:
            self._stop(row.id)
        for side in (0, 1):
            level = self.hub.bot_level(getattr(row, f"player{side}_id"))
            if level is None:
                continue
            bot_id = getattr(row, f"player{side}_id")
            if row.status == "setup" and g.prelude is not None:
                if g.prelude.to_move == side and not g.prelude.finished:
                    self._start(self._act(row.id, bot_id, *self._prelude_choice(g.prelude, row.version)))
            elif row.status == "setup" and not getattr(row, f"submitted{side}"):
                self._start(self._act(row.id, bot_id, "submit_roster", {"roster": {}}))
            elif row.status in OVER_STATUSES and row.rematch_offer == side ^ 1:  # it always plays again
                self._start(self._act(row.id, bot_id, "accept_rematch", {}))
            elif row.status == "active" and g.takeback_offer == side ^ 1:
                # it grants every takeback at once, as lichess's computer does (the server refuses
                # them in rated games); a search under way is for a position taken back: its move
                # is dropped, as the game's version moved on
                self._start(self._act(row.id, bot_id, "accept_takeback", {}))
            elif row.status == "active" and g.game.board.turn == side and self._busy.get(row.id) != row.version:
                self._busy[row.id] = row.version
                self._start(self._move(g, side, level, row.version))

    def _start(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    def _prelude_choice(prelude, seed: int) -> tuple[str, dict]:
        """The computer's prelude step: a random free square and substitute; it never exchanges."""
        if prelude.expects == "swap":
            return "prelude_swap", {"squares": None}
        rng = random.Random(seed)
        wing = prelude.king_wing if prelude.expects == "king wing" else prelude.queen_wing
        square = rng.choice([sq for sq in wing if sq not in prelude.picks])
        return "prelude_pick", {"square": square, "piece": rng.choice(prelude.remaining())}

    async def _act(self, game_id: str, bot_id: int, action: str, payload: dict) -> None:
        """An action without thinking (a set-up step, accepting a rematch or a takeback)."""
        try:
            await self.hub.act(game_id, bot_id, action, payload)
        except ActionError:
            pass  # the set-up ended, the rematch began, or the takeback was withdrawn by a move, meanwhile

    async def _move(self, g: LiveGame, side: int, level: int, version: int) -> None:
        row = g.row
        bot_id = getattr(row, f"player{side}_id")
        async with self.hub.locks[row.id]:  # the position read between events
            if row.version != version:
                return  # the game moved on before the computer started; that event considered it anew
            args = self._question(g, side, level)
        search_id = worker.new_search_id()
        try:
            if self._executor is None:
                self._executor = self._factory()
            answer = asyncio.get_running_loop().run_in_executor(self._executor, worker.think, search_id,
                                                                self._think, *args)
            self._searches[row.id] = (version, search_id, answer)
            text = await answer
        except asyncio.CancelledError:  # stopped: the game moved on (`consider`), or the server stops
            return
        except Exception:
            log.exception("the computer could not think in game %s", row.id)
            self._busy.pop(row.id, None)
            return
        finally:
            search = self._searches.get(row.id)
            if search is not None and search[1] == search_id:  # not stopped, nor replaced by a newer one
                del self._searches[row.id]
        if self._busy.get(row.id) != version:
            return
        del self._busy[row.id]
        current = self.hub.live.get(row.id)
        if current is None or current.row.version != version:
            return  # the game moved on (resignation, time, abort) while it thought
        try:
            if text == RETRACT:  # Tiling Rider: its unfinished turn leads nowhere; take a move back (R12)
                await self.hub.act(row.id, bot_id, "retract", {})
            else:
                await self.hub.act(row.id, bot_id, "move", {"move": text})
        except ActionError as e:
            log.error("the computer's move %s was refused in game %s: %s", text, row.id, e)

    def _stop(self, game_id: str) -> None:
        """Drop the game's search: not started, it never runs; under way, it stops."""
        _, search_id, answer = self._searches.pop(game_id)
        answer.cancel()
        worker.stop_search(search_id)

    def _question(self, g: LiveGame, side: int, level: int) -> tuple:
        """`choose_move`'s arguments for the computer to move in this game."""
        row, board = g.row, g.game.board
        private = row.mode == "private"
        rosters = [r.to_data() for r in g.rosters()]
        if private:  # what it knows: its own roster; the opponent's pieces assumed to move by default
            rosters[side ^ 1] = {}
        return (row.variant, row.start_fen, [m.text for m in board.move_stack], tuple(rosters), level,
                g.clock.thinking_time(side, self.hub.now()), g.tc.increment_ms,
                [m.text for m in board.legal_moves] if private else None)

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
