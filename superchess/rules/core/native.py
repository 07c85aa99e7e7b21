"""The native rules core (Rust, `superchess._native`) behind the Python core's interface.

Everything that connects the two cores is here: which core runs (`SUPERCHESS_CORE=python|native`;
by default native where the extension is built), the conversion of compiled `Tables` into the
native core's input (cached beside the Python tables, so it lives as long as they do), and
`NativePosition`, a native position with the attributes the boards, the FEN writers and the hooks
read from a Python `Position`. A board sets up a Python position from its text (validation and
errors stay the Python core's) and `core_position` turns it into the position it plays on.
"""
from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Callable

from . import encoding, hooks
from .position import Position

_MISSING = ""  # why the extension could not be imported
try:
    from ... import _native
except ImportError as _error:  # no Rust toolchain when the package was installed
    _native = None
    _MISSING = str(_error)

CORE_ENV = "SUPERCHESS_CORE"
_warned = False


class CoreUnavailableError(RuntimeError):
    """SUPERCHESS_CORE=native, but the native core is not built."""


def available() -> bool:
    """Is the native extension built and importable?"""
    return _native is not None


def selected_core() -> str:
    """"python" or "native", from SUPERCHESS_CORE (default: native where it is built)."""
    global _warned
    choice = os.environ.get(CORE_ENV, "").strip().lower()
    if choice not in ("", "python", "native"):
        raise ValueError(f"{CORE_ENV} must be 'python' or 'native', not {choice!r}")
    if choice == "native" and _native is None:
        raise CoreUnavailableError(f"{CORE_ENV}=native, but the native core is not built ({_MISSING}); "
                                   f"install a Rust toolchain and run `make native`")
    if not choice:
        if _native is None and not _warned:
            _warned = True
            print("superchess: the native core is not built (no Rust toolchain at install); running on the "
                  "Python core", file=sys.stderr)
        choice = "native" if _native is not None else "python"
    return choice


# Python tables -> their native copy; an entry goes when the Python tables are dropped from their
# cache, so the native copies are bounded as the Python ones are
_converted: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def native_tables(pos: Position, diagram=None) -> "_native.Tables":
    """The native copy of a position's compiled tables, made once per `Tables` object (with a
    diagram variant's `DiagramTables`, whose walked patterns come with them)."""
    tables = pos.tables
    nt = _converted.get(tables)
    if nt is None:
        variant = tables.variant
        geo = variant.geometry
        fortress = None
        if variant.capture_consequence is hooks.fortress_garrison:
            f = variant.type_index("F")
            fortress = (encoding.code_of(0, f), encoding.code_of(1, f))
        nt = _converted[tables] = _native.Tables(tables, geo.files, len(variant.pieces),
                                                 [list(a) for a in geo.adjacent], fortress, diagram)
    return nt


def validate_core(core: str | None) -> None:
    """ValueError unless `core` names a core ("python", "native") or is None (SUPERCHESS_CORE decides)."""
    if core not in (None, "python", "native"):
        raise ValueError(f"core must be 'python' or 'native', not {core!r}")


def core_position(set_up: Callable[[], Position], core: str | None = None,
                  native_class: type[NativePosition] | None = None):
    """The position a board plays on: `set_up()` (a Python position set up from the board's text)
    on the Python core, else a `native_class` position in its state (default `NativePosition`);
    `core` is "python", "native" or None (SUPERCHESS_CORE decides). Variants the native core does
    not play (their position class or hooks are ones it does not know) stay on the Python core."""
    validate_core(core)
    native_class = native_class or NativePosition
    pos = set_up()
    if (core or selected_core()) == "python" or type(pos) is not native_class.python_class \
            or pos.variant.capture_consequence not in (None, hooks.fortress_garrison):
        return pos
    if _native is None:
        raise CoreUnavailableError(f"the native core is not built ({_MISSING})")
    return native_class.from_python(pos, set_up)


def core_of(pos) -> str:
    """The core a board's position is on: "python" or "native"."""
    return "native" if isinstance(pos, NativePosition) else "python"


def python_position(pos) -> Position:
    """A Python core position in the state of a board's position (itself on the Python core)."""
    return pos.python_position() if isinstance(pos, NativePosition) else pos


class NativePosition(_native.Position if _native is not None else object):
    """A native position with the Python position's read interface (`board`, `occ`, `kings`,
    `side`, clocks, `hash`, `hold`, `legal`, `make`, `unmake`, `changes`, `in_check`,
    `is_attacked`, `repetitions`, `perft`) and the set-up it started from."""

    python_class: type[Position] = Position  # the Python core position it stands for

    @classmethod
    def from_python(cls, pos: Position, set_up: Callable[[], Position]) -> NativePosition:
        """A native position in the state of `pos`, a position just made by `set_up`."""
        return cls.from_state(pos, set_up, native_tables(pos))

    @classmethod
    def from_state(cls, pos: Position, set_up: Callable[[], Position], tables: "_native.Tables",
                   unmoved: list[int] | None = None) -> NativePosition:
        """A native position on `tables` in the state of `pos` (`unmoved`: a diagram position's
        recorded unmoved rights), checked against its hash."""
        native = cls(tables, pos.board, pos.side, pos.castling, pos.ep, pos.halfmove, pos.fullmove, pos.hold,
                     unmoved)
        if native.hash != pos.hash:
            raise RuntimeError("native core: the hash differs from the Python core's")
        native.set_up_python = set_up
        native.variant = pos.variant
        native.rosters = pos.rosters
        native.tables = pos.tables
        native._codes = {}
        return native

    code_for = Position.code_for
    letter_at = Position.letter_at

    def python_position(self) -> Position:
        """A Python core position in the same state with the same history (for the engine's
        search, which runs on the Python core until it moves to the native one)."""
        pos = self.set_up_python()
        for m in self.moves():
            pos.make(m)
        return pos


if _native is not None:
    _expected = (encoding.CELL_BITS, encoding.DOUBLE, encoding.EP, encoding.CASTLE, encoding.DESTROY,
                 encoding.PROMO_SHIFT, encoding.PROMO_MASK, encoding.MULTI, encoding.RECORD_SHIFT,
                 encoding.SIDE_SHIFT)
    if tuple(_native.ENCODING) != _expected:
        raise ImportError("superchess._native was built for another move encoding: rebuild it (make native)")
