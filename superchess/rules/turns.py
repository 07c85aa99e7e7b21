"""Multi-move turns (ARCHITECTURE: "a turn is a sequence of moves with a rule that says when it may
end; single-move variants are the one-element case").

A variant with multi-move turns gives two things:
- a `TurnRule` (data, registered by name in `TURN_RULES`): how many moves a turn has at least and at
  most; the turn ends by itself when it reaches its maximum, otherwise by the end-of-turn move;
- a `TurnModel` (its positions as this module sees them): the moves that may continue the turn now,
  how one is played, how the turn is closed, and whether a closed turn is legal (e.g. the mover's
  King is not attacked at its end).

A model may keep one mutable position instead of immutable states (the core's make/unmake): it then
also has `undo(state)`, `play` and `end_turn` change the position in place (returning it), the search
takes back every move and turn end it tries, and a lazy `moves` iterator must survive the position
being changed and restored between its items.

From these, `continuations` lists what the public `legal_moves` offers mid-turn: each move that starts
at least one legal completion of the turn, plus `END_TURN` when the turn may stop here. Tiling Rider
(1-N moves per turn) plugs in the same way with its own rule and model.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

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


class TurnModel(Protocol[S, M]):
    def moves(self, state: S) -> Iterable[M]:
        """Pseudo-legal moves that may continue the turn in `state` (a lazy iterable will do)."""

    def play(self, state: S, move: M) -> S:
        """The state after `move`, still inside the turn (unless the move itself closed it)."""

    def end_turn(self, state: S) -> S:
        """The state after closing the turn (the other side to move)."""

    def turn_ok(self, ended: S, mover: int) -> bool:
        """Is a turn of `mover` that ended in `ended` legal?"""

    # optional, for a model over one mutable position: def undo(self, state: S) -> None
    # (take back the last `play` or `end_turn`)
    # optional: def out_of_reach(self, state: S, moves_left: int) -> bool (True only when no legal
    # completion can exist within `moves_left` more moves: a sound cut, never a guess)


def out_of_reach(model: TurnModel, state, moves_left: int) -> bool:
    """The model's sound test that no completion exists within `moves_left` moves (False without one)."""
    test = getattr(model, "out_of_reach", None)
    return test is not None and test(state, moves_left)


def undo_in_place(model: TurnModel, state) -> None:
    """Take back the last `play` / `end_turn` of a model over a mutable position; nothing to do for
    immutable states."""
    undo = getattr(model, "undo", None)
    if undo is not None:
        undo(state)


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
        undo_in_place(self.model, ended)
        return ok

    def completable(self, state: S, made: int, mover: int) -> bool:
        """Does some legal completion of the turn exist from here?"""
        failed: dict = {}
        visited = [0]
        return any(self._completable(state, made, mover, limit, failed, visited) for limit in self._limits(made))

    def completion(self, state: S, made: int, mover: int) -> tuple[list[M] | None, int]:
        """(the moves of a legal completion of the turn from here, shortest first; [] when it may end
        now; None when there is none or the budget ran out before one was found, the states visited).
        What a player that must finish its turn plays, where `completable` answers the rules."""
        failed: dict = {}
        visited = [0]
        line: list[M] = []
        for limit in self._limits(made):
            if self._completable(state, made, mover, limit, failed, visited, line):
                undecided = self.budget is not None and visited[0] > self.budget
                return (None if undecided else line[::-1]), visited[0]
        return None, visited[0]

    def _limits(self, made: int) -> range:
        """The rounds of the iterative deepening from `made` moves: completions ending after `limit`
        moves at most, shortest first (a short way out of check is found before long detours are
        explored); the last round reaches the turn's maximum, so the search stays complete."""
        return range(max(made, self.rule.min_moves), self.rule.max_moves + 1)

    def _completable(self, state: S, made: int, mover: int, limit: int, failed: dict, visited: list[int],
                     line: list[M] | None = None) -> bool:
        """Does a legal completion end after `limit` moves at most? `failed` maps a state's key to
        the most moves left with which it was shown to have none; `line` gets the completion's moves,
        last first."""
        if self.can_end(state, made, mover):
            return True
        if made >= limit:
            return False
        left = limit - made
        key = None if self.key is None else self.key(state)
        if key is not None and failed.get(key, -1) >= left:
            return False
        visited[0] += self.bound_cost
        if out_of_reach(self.model, state, left):
            return False
        for m in self.model.moves(state):
            visited[0] += 1
            if self.budget is not None and visited[0] > self.budget:
                return True
            child = self.model.play(state, m)
            ok = self._completable(child, made + 1, mover, limit, failed, visited, line)
            undo_in_place(self.model, child)
            if ok:
                if line is not None:
                    line.append(m)
                return True
        if key is not None:
            failed[key] = max(left, failed.get(key, -1))
        return False

    def continuations(self, state: S, made: int, mover: int) -> tuple[list[M], bool]:
        """(the moves that start a legal completion, whether the end-of-turn move is legal now).
        Every move is tried in each round of the deepening before any is tried in the next."""
        if made >= self.rule.max_moves:
            return [], False
        failed: dict = {}
        visited = [0]
        candidates = list(self.model.moves(state))
        found = [False] * len(candidates)
        for limit in self._limits(made + 1):
            for i, m in enumerate(candidates):
                if not found[i]:
                    child = self.model.play(state, m)
                    found[i] = self._completable(child, made + 1, mover, limit, failed, visited)
                    undo_in_place(self.model, child)
        return [m for m, ok in zip(candidates, found) if ok], self.can_end(state, made, mover)
