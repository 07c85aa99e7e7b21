"""The board of the diagram family (Vanguard, pasted diagrams): `Board("vanguard")` is a `DiagramBoard`,
the core's `CoreBoard` over `DiagramCorePosition` (core Position and Tables, integer moves). What differs from the
core variants is said here: the move text (Vanguard 1.1, R21: origin + destination + ``x<square>``
for every captured square other than the destination, in path order: ``b2d4xc3``, ``e5e5xd7``,
``b2b2``; a promotion by choice of a pasted diagram's promoChoice ends with the type's letter in
lower case, as core variants write it: ``a7a8q``, ``b7a8q``), the position text (`fen.py`),
captures off the destination, and the end of the game with two royals (4.3, 4.4, R15) and automatic
draws (4.6, R20).
"""
from __future__ import annotations

import re
from functools import partial
from dataclasses import dataclass, field

from ..core.board import CoreBoard, pieces_of
from ..core.contract import IllegalMoveError
from ..core.encoding import CELL_MASK, PROMO_MASK, PROMO_SHIFT, TO_SHIFT
from ..core.native import core_position
from ..core.position import lone_piece_destinations
from ..core.outcome import Outcome, Termination
from ..core.program import Roster
from .fen import get_fen, set_fen
from .native import NativeDiagramPosition
from .position import DiagramCorePosition
from .variant import DiagramVariant, get_diagram_variant

_MOVE_RE = re.compile(r"([a-z][0-9]+)([a-z][0-9]+)((?:x[a-z][0-9]+)*)([a-z]?)\Z")


@dataclass(frozen=True)
class DiagramMove:
    from_cell: int
    to_cell: int
    captured: tuple[int, ...]       # every captured cell, in path order (destination included)
    kind: str                       # normal, locust, igui, rifle, pass, swap, jump
    text: str = field(default="", compare=False)
    promotion: str | None = field(default=None, compare=False)  # the type it becomes (FEN letter)
    code: int = field(default=-1, compare=False, repr=False)    # the core's move integer

    @property
    def via(self) -> tuple[int, ...]:
        """The captured cells other than the destination (the squares the move text names)."""
        return tuple(c for c in self.captured if c != self.to_cell)

    def uci(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def _set_up(rules: DiagramVariant, fen: str) -> DiagramCorePosition:
    """A Python core position set up from position text (FenError when it is bad)."""
    pos = DiagramCorePosition(rules)
    set_fen(pos, fen)
    return pos


class DiagramBoard(CoreBoard):
    """A diagram-variant position with its move history (see `CoreBoard` for the shared API)."""

    native_class = NativeDiagramPosition

    def __init__(self, variant: str | DiagramVariant = "vanguard", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None, core: str | None = None) -> None:
        self.variant = get_diagram_variant(variant) if isinstance(variant, str) else variant
        if rosters and any(rosters):
            raise ValueError(f"{self.variant.name} pieces cannot be reprogrammed")
        self.geometry = self.variant.geometry
        self._piece_of = pieces_of(self.variant)
        self.starting_fen = fen or self.variant.start_fen
        # the core switch (native.py): `core` or SUPERCHESS_CORE
        self._pos = core_position(partial(_set_up, self.variant, self.starting_fen), core, self.native_class)
        self.move_stack: list[DiagramMove] = []
        self._moves = self._pos.tables.move_cache  # shared by the boards of the variant
        self._legal_cache: tuple[tuple, list[int], list[DiagramMove] | None] | None = None

    def fen(self) -> str:
        return get_fen(self._pos)

    def name(self, cell: int) -> str:
        return self.geometry.name(cell)

    def _turned_fen(self) -> str:
        fields = self.fen().split(" ")
        fields[1] = "wb"[self.turn ^ 1]
        return " ".join(fields)

    def _lone_piece_cells(self, letter: str, cell: int, side: int) -> list[int]:
        pos = DiagramCorePosition(self.variant)
        return lone_piece_destinations(pos, cell, pos.code(side, letter))

    # -- moves ------------------------------------------------------------------------------
    def move_of(self, m: int) -> DiagramMove:
        """The public move of `m` in the current position: what it captures and promotes depends
        on the pieces on its origin and destination only, so it is cached by them."""
        pos = self._pos
        board = pos.board
        key = (m, board[m & CELL_MASK], board[(m >> TO_SHIFT) & CELL_MASK])
        mv = self._moves.get(key)
        if mv is None:
            mv = self._moves[key] = self._build_move(m)
        return mv

    def _build_move(self, m: int) -> DiagramMove:
        pos = self._pos
        o, d, caps, kind = pos.record(m)
        name = self.geometry.name
        text = name(o) + name(d) + "".join("x" + name(c) for c in caps if c != d)
        board = pos.board
        chosen = (m >> PROMO_SHIFT) & PROMO_MASK if pos.dt.choices[board[o]] else 0
        if chosen:  # the player's choice (promoChoice) is written, a fixed type (4.5) is not
            letter = pos.rule_of(chosen).letter
            return DiagramMove(o, d, caps, kind, text + letter.lower(), letter, m)
        landing, arrived = (o, board[d]) if kind == "swap" else (d, board[o])  # the pawn's new cell
        promo = None
        if pos.dt.morph[arrived]:
            promo = next((pos.rule_of(after).letter for c, after in pos.changes(m)
                          if c == landing and after and after != arrived), None)
        return DiagramMove(o, d, caps, kind, text, promo, m)

    def _public_moves(self, codes: list[int]) -> list[DiagramMove]:
        moves: dict[str, DiagramMove] = {}
        for m in codes:
            mv = self.move_of(m)
            moves.setdefault(mv.text, mv)
        return sorted(moves.values(), key=lambda mv: mv.text)

    def parse_move(self, text: str) -> DiagramMove:
        """The legal move written `text` (e.g. `e4g5xi6`, `b2b2`, `a7a8q`), or IllegalMoveError."""
        t = text.strip()
        if not _MOVE_RE.match(t):
            raise IllegalMoveError(f"bad move text {text!r} (expected origin, destination, x<square> "
                                   f"for each other captured square and a promotion letter if chosen, "
                                   f"e.g. b2d4xc3 or a7a8q)")
        legal = self._legal_list()
        for mv in legal:
            if mv.text == t:
                return mv
        choices = [mv.text[-1] for mv in legal if mv.text[:-1] == t and mv.text[-1].isalpha()]
        if choices:
            raise IllegalMoveError(f"illegal move {t}: it promotes, add the letter of one of {', '.join(choices)}")
        raise IllegalMoveError(f"illegal move {t} in {self.fen()}")

    def push_code(self, m: int) -> None:
        mv = self.move_of(m)
        self._pos.make(m)
        self.move_stack.append(mv)

    def divide(self, depth: int) -> list[tuple[DiagramMove, int]]:
        out = []
        for mv in self._legal_list():
            self._pos.make(mv.code)
            out.append((mv, self.perft(depth - 1) if depth > 1 else 1))
            self._pos.unmake()
        return out

    def captures(self, move: DiagramMove) -> list[tuple[str, object]]:
        """Every piece the move removes from the board."""
        board = self._pos.board
        return [(self.name(c), self._piece(board[c])) for c in move.captured]

    # -- check and game end -----------------------------------------------------------------
    def _royal_lost(self) -> bool:
        return bool(self.variant.king) and self._pos.kings[self.turn] < 0

    def is_checkmate(self) -> bool:
        """Checkmate without a Prince, or double checkmate (4.4)."""
        return not self._royal_lost() and not self._legal_list() and self.is_check() and self._pos.no_royal_rescue()

    def is_stalemate(self) -> bool:
        return not self._royal_lost() and not self._legal_list() and not self.is_checkmate()

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """King captured with no Prince left (R15), checkmate or double checkmate, stalemate, the
        move rule and repetition (4.6, R20; both automatic)."""
        if self._royal_lost() or self.is_checkmate():
            return Outcome(Termination.CHECKMATE, self.turn ^ 1)
        if not self._legal_list():
            return Outcome(Termination.STALEMATE, None)
        if self._pos.halfmove >= self.variant.move_rule:
            return Outcome(Termination.MOVE_RULE, None)
        if self.repetition_count() >= self.variant.repetition:
            return Outcome(Termination.REPETITION, None)
        return None

    def has_insufficient_material(self, side: int) -> bool:
        """Vanguard has no insufficient-material draw (4.6): never."""
        return False

    def can_claim_draw(self) -> bool:
        """Draws by the move rule and repetition are automatic here (4.6): nothing to claim."""
        return False
