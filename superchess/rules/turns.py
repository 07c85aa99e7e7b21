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
    not refused: the turn's end is still judged, and the player can take moves back, tiling R12)."""
    rule: TurnRule
    model: TurnModel
    key: Callable[[S], Hashable] | None = None
    budget: int | None = None

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
        return self._completable(state, made, mover, set(), [0])

    def _completable(self, state: S, made: int, mover: int, failed: set, visited: list[int]) -> bool:
        if self.can_end(state, made, mover):
            return True
        if made >= self.rule.max_moves:
            return False
        key = None if self.key is None else self.key(state)
        if key is not None and key in failed:
            return False
        for m in self.model.moves(state):
            visited[0] += 1
            if self.budget is not None and visited[0] > self.budget:
                return True
            child = self.model.play(state, m)
            ok = self._completable(child, made + 1, mover, failed, visited)
            undo_in_place(self.model, child)
            if ok:
                return True
        if key is not None:
            failed.add(key)
        return False

    def continuations(self, state: S, made: int, mover: int) -> tuple[list[M], bool]:
        """(the moves that start a legal completion, whether the end-of-turn move is legal now)."""
        if made >= self.rule.max_moves:
            return [], False
        failed: set = set()
        visited = [0]
        moves = []
        for m in self.model.moves(state):
            child = self.model.play(state, m)
            if self._completable(child, made + 1, mover, failed, visited):
                moves.append(m)
            undo_in_place(self.model, child)
        return moves, self.can_end(state, made, mover)
