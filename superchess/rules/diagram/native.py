"""A diagram variant's position on the native core: the core's `NativePosition` with what
`DiagramBoard` and the diagram position text read (rules, walked-pattern tables, move records)."""
from __future__ import annotations

from collections.abc import Callable

from ..core.native import NativePosition, native_tables
from .position import DiagramCorePosition
from .variant import PieceRule


class NativeDiagramPosition(NativePosition):
    """A diagram variant's native position."""

    python_class = DiagramCorePosition

    @classmethod
    def from_python(cls, pos: DiagramCorePosition,
                    set_up: Callable[[], DiagramCorePosition]) -> NativeDiagramPosition:
        native = cls.from_state(pos, set_up, native_tables(pos, pos.dt), sorted(pos.unmoved))
        native.rules, native.dt = pos.rules, pos.dt
        native.files, native.ranks = pos.files, pos.ranks
        return native

    record = DiagramCorePosition.record

    def rule_of(self, code: int) -> PieceRule:
        return self.rules.pieces[(code & 63) - 1]
