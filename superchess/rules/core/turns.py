"""Multi-move turns (ARCHITECTURE: "a turn is a sequence of moves with a rule that says when it may
end; single-move variants are the one-element case").

A variant with multi-move turns gives two things:
- a `TurnRule` (data, registered by name in `TURN_RULES`): how many moves a turn has at least and at
  most; the turn ends by itself when it reaches its maximum, otherwise by the end-of-turn move;
- a `TurnModel` (its positions as this module sees them): the moves that may continue the turn now,
  how one is played, how the turn is closed, and whether a closed turn is legal (e.g. the mover's
  King is not attacked at its end).

A model may keep one mutable position instead of immutable states (the core's make/unmake): its
`play` and `end_turn` then change the position in place (returning it), its `undo(state)` takes the
last of them back (a no-op for immutable states), the search takes back every move and turn end it
tries, and a lazy `moves` iterator must survive the position being changed and restored between its
items.

From these, `continuations` lists what the public `legal_moves` offers mid-turn: each move that starts
at least one legal completion of the turn, plus `END_TURN` when the turn may stop here. Tiling Rider
(1-N moves per turn) plugs in the same way with its own rule and model.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

S = TypeVar("S")  # a variant's position
M = TypeVar("M")  # a variant's move

#: The text of the end-of-turn move (what a player sends to stop a turn before its maximum).
END_TURN = "end"


@dataclass(frozen=True)
class TurnRule:
    """How long a turn is: at least `min_moves`, at most `max_moves` moves."""
    name: str
    min_moves: int
    max_moves: int
    #: a turn short of `min_moves` may also end when no move can continue it (Tiling Rider R13)
    stop_when_stuck: bool = False


TURN_RULES = {  # the core's one-move turns need no rule: its Board is the one-element case
    "one_then_optional": TurnRule("one_then_optional", 1, 2),  # InterGrid R8: square move, optional point move
}


class TurnModel(ABC, Generic[S, M]):
    """A variant's positions as the turn search sees them."""

    @abstractmethod
    def moves(self, state: S) -> Iterable[M]:
        """Pseudo-legal moves that may continue the turn in `state` (a lazy iterable will do)."""

    @abstractmethod
    def play(self, state: S, move: M) -> S:
        """The state after `move`, still inside the turn (unless the move itself closed it)."""

    @abstractmethod
    def end_turn(self, state: S) -> S:
        """The state after closing the turn (the other side to move)."""

    @abstractmethod
    def turn_ok(self, ended: S, mover: int) -> bool:
        """Is a turn of `mover` that ended in `ended` legal?"""

    def undo(self, state: S) -> None:
        """Take back the last `play` or `end_turn` of a model over one mutable position (nothing to
        do for immutable states)."""

    def out_of_reach(self, state: S, moves_left: int) -> bool:
        """True only when no legal completion can exist within `moves_left` more moves: a sound cut,
        never a guess (without a bound: never)."""
        return False


@dataclass(frozen=True)
class TurnSearch(Generic[S, M]):
    """Legality of moves inside a turn: a move is legal if some completion of the turn is legal.

    Long turns (Tiling Rider: up to 9 and more moves) need two optional limits: `key` names a state for
    remembering those without a legal completion (transpositions), and `budget` bounds the states one
    `continuations` or `completable` call visits; past it a move counts as completable (undecided, so
    not refused: the turn's end is still judged, and the player can take moves back, tiling R12).
    The budget counts moves tried, and `bound_cost` more for each test of the model's `out_of_reach`
    (its cost in moves tried, so a budget stands for about the same time with or without the test)."""
    rule: TurnRule
    model: TurnModel
    key: Callable[[S], Hashable] | None = None
    budget: int | None = None
    bound_cost: int = 0

    def can_end(self, state: S, made: int, mover: int) -> bool:
        """May the turn stop now, after `made` moves?"""
        long_enough = made >= self.rule.min_moves or (
            self.rule.stop_when_stuck and made > 0 and not any(True for _ in self.model.moves(state)))
        if not long_enough:
            return False
        ended = self.model.end_turn(state)
        ok = self.model.turn_ok(ended, mover)
        self.model.undo(ended)
        return ok

    def completable(self, state: S, made: int, mover: int) -> bool:
        """Does some legal completion of the turn exist from here?"""
        work = _Work()
        for limit in self._limits(made):
            work.cut = False
            if self._completable(state, made, mover, limit, work):
                return True
            if not work.cut:
                return False
        return False

    def completion(self, state: S, made: int, mover: int) -> tuple[list[M] | None, int]:
        """(the moves of a legal completion of the turn from here, shortest first; [] when it may end
        now; None when there is none or the budget ran out before one was found, the states visited).
        What a player that must finish its turn plays, where `completable` answers the rules."""
        work = _Work()
        line: list[M] = []
        for limit in self._limits(made):
            work.cut = False
            if self._completable(state, made, mover, limit, work, line):
                undecided = self.budget is not None and work.visited > self.budget
                return (None if undecided else line[::-1]), work.visited
            if not work.cut:
                break
        return None, work.visited

    def _limits(self, made: int) -> range:
        """The rounds of the iterative deepening from `made` moves: completions ending after `limit`
        moves at most, shortest first (a short way out of check is found before long detours are
        explored); the last round reaches the turn's maximum, so the search stays complete. A round
        that stopped no line at its limit (`_Work.cut`) is the last one needed: deeper rounds would
        search the same lines, so the cost never grows with an allowance that no line can use."""
        return range(max(made, self.rule.min_moves), self.rule.max_moves + 1)

    def _completable(self, state: S, made: int, mover: int, limit: int, work: _Work,
                     line: list[M] | None = None) -> bool:
        """Does a legal completion end after `limit` moves at most? `work.failed` maps a state's key
        to the most moves left with which it was shown to have none (`NONE_AT_ALL`: none with any);
        `line` gets the completion's moves, last first."""
        if self.can_end(state, made, mover):
            return True
        if made >= limit:
            work.cut = True
            return False
        left = limit - made
        key = None if self.key is None else self.key(state)
        known = -1 if key is None else work.failed.get(key, -1)
        if known >= left:
            work.cut |= known != NONE_AT_ALL
            return False
        work.visited += self.bound_cost
        if self.model.out_of_reach(state, left):
            whole = self.rule.max_moves - made  # out of reach with all the moves the turn has left, too?
            if left < whole:
                work.visited += self.bound_cost
            exhausted = left >= whole or self.model.out_of_reach(state, whole)
            if key is not None:
                work.failed[key] = NONE_AT_ALL if exhausted else max(left, known)
            work.cut |= not exhausted
            return False
        outer, work.cut = work.cut, False
        for m in self.model.moves(state):
            work.visited += 1
            if self.budget is not None and work.visited > self.budget:
                work.cut |= outer
                return True
            child = self.model.play(state, m)
            ok = self._completable(child, made + 1, mover, limit, work, line)
            self.model.undo(child)
            if ok:
                if line is not None:
                    line.append(m)
                work.cut |= outer
                return True
        if key is not None:
            work.failed[key] = max(left, known) if work.cut else NONE_AT_ALL
        work.cut |= outer
        return False

    def continuations(self, state: S, made: int, mover: int) -> tuple[list[M], bool]:
        """(the moves that start a legal completion, whether the end-of-turn move is legal now).
        Every move is tried in each round of the deepening before any is tried in the next."""
        if made >= self.rule.max_moves:
            return [], False
        work = _Work()
        candidates = list(self.model.moves(state))
        found = [False] * len(candidates)
        for limit in self._limits(made + 1):
            work.cut = False
            for i, m in enumerate(candidates):
                if not found[i]:
                    child = self.model.play(state, m)
                    found[i] = self._completable(child, made + 1, mover, limit, work)
                    self.model.undo(child)
            if all(found) or not work.cut:
                break
        return [m for m, ok in zip(candidates, found) if ok], self.can_end(state, made, mover)


#: `_Work.failed`'s mark of a state with no legal completion however many moves are left.
NONE_AT_ALL = float("inf")


@dataclass
class _Work:
    """What one search has learnt and spent: `failed` (see `TurnSearch._completable`), the moves
    tried (`visited`, with the bound tests' cost), and whether the current round stopped a line at
    its limit (`cut`: a deeper round could still find more)."""
    failed: dict = field(default_factory=dict)
    visited: int = 0
    cut: bool = False
