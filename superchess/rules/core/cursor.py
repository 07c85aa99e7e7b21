"""A cursor: an immutable handle on one moment of a mutable position's move stack.

`turns.py` and `turn_board.py` treat a variant's states as values (play returns a new state, a
stack of states is kept, an old one may be revisited). A cursor lets a make/unmake position serve
there without copies: `play` makes the move and returns a new cursor; using an older cursor first
unmakes back down to it (siblings in a search, `pop` on a board). A cursor is valid while the
position's stack still passes through it (same depth, same hash there); a stale one raises.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class StackPosition(Protocol):
    stack: list
    hash: int

    def unmake(self) -> None: ...

    def redo(self, entry: Any) -> None: ...


class Cursor:
    __slots__ = ("depth", "hash", "position")

    def __init__(self, position: StackPosition) -> None:
        self.position = position
        self.depth = len(position.stack)
        self.hash = position.hash

    def get(self) -> StackPosition:
        """The position at this cursor (unmaking whatever was made beyond it)."""
        pos = self.position
        while len(pos.stack) > self.depth:
            pos.unmake()
        if len(pos.stack) != self.depth or pos.hash != self.hash:
            raise RuntimeError("stale cursor: the position no longer passes through it")
        return pos

    def view(self, fn: Callable[[StackPosition], T]) -> T:
        """`fn` of the position at this cursor, keeping what was made beyond it (unmade, then redone)."""
        pos = self.position
        later = pos.stack[self.depth:]
        for _ in later:
            pos.unmake()
        try:
            if pos.hash != self.hash:
                raise RuntimeError("stale cursor: the position no longer passes through it")
            return fn(pos)
        finally:
            for entry in later:
                pos.redo(entry)
