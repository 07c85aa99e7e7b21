"""A playable variant from an Interactive Diagram line: board size, pieces (XBetza compiled to move
patterns once per type and side), start array, promotion (``morph``: a fixed type; promoChoice: the
player's choice, `line.DiagramLine.choice_promoters`), royals, succession and named pattern hooks.
Vanguard is the diagram of its seed plus data/vanguard.toml; any other diagram line with
one-letter IDs (or a letter map) loads with `rules_from_diagram`.

What a diagram does not say comes from data:
  * ``letters``: FEN letter per piece ID (IDs of one letter default to themselves).
  * ``king``/``prince``: the royal piece subject to check, and the second royal that is subject
    only to double checkmate (Vanguard 4.3, 4.4). Without them, a single royal type is the King.
  * ``succession``: (lost, heir) ID pairs; when the last `lost` piece of a side is captured, its
    `heir` becomes one in place (Vanguard R16, R17).
  * ``hooks``: piece ID -> names in `PATTERN_HOOKS`, filters of the piece's patterns that say what
    its XBetza cannot (Helepolis R5: the initial jump goes forward only).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import ClassVar

from ..core.geometry import RectGeometry
from ..core.text import placement_text
from ..core.variant import PlainVariant, variant_data
from .line import DiagramError, parse_diagram
from .xbetza import MovePattern, patterns

Patterns = tuple[MovePattern, ...]


def forward_initial_jump(pats: Patterns) -> Patterns:
    """Vanguard R5: the Helepolis's initial jump (``idaufmR``) only forward."""
    return tuple(p for p in pats if p.term != "idaufmR" or p.forward_first)


PATTERN_HOOKS: dict[str, Callable[[Patterns], Patterns]] = {"forward_initial_jump": forward_initial_jump}


@dataclass(frozen=True)
class PieceRule:
    letter: str                      # FEN letter, upper case
    id: str                          # the diagram's ID (two letters allowed)
    name: str
    xbetza: str
    pats: tuple[Patterns, Patterns]  # per side, hooks applied
    morph: str | None                # FEN letter of the promoted type; pawn types have one
    start_ranks: tuple[frozenset[int], frozenset[int]]  # ranks (0-based) of the start squares
    initial: bool                    # some pattern needs an unmoved piece (XBetza ``i``)
    choices: tuple[str, ...] = ()    # FEN letters it may promote to (promoChoice) when it has no morph
    # the board page's drawing when not the one its name chooses (presentation: not compared)
    drawing: str = field(default="", compare=False)

    @property
    def label(self) -> str:
        """The text a board shows for the piece where it has no drawing: its diagram ID."""
        return self.id

    @property
    def pawn(self) -> bool:
        """Pawn types promote; their moves reset the move rule (R20)."""
        return self.morph is not None or bool(self.choices)

    @property
    def recorded_unmoved(self) -> bool:
        """Unmoved right kept in the position text (R11: Helepolis); pawn types derive it from the
        rank instead."""
        return self.initial and not self.pawn


@dataclass(frozen=True)
class DiagramVariant(PlainVariant):
    """A diagram variant (the `VariantInfo` of the family)."""
    family: ClassVar[str] = "diagram"
    name: str
    title: str
    files: int
    ranks: int
    pieces: tuple[PieceRule, ...]    # in diagram order; piece code = index + 1
    array: dict[int, tuple[int, str]]  # cell -> (side, letter) of the start position
    promo_zone: int
    king: str | None                 # FEN letter
    prince: str | None
    succession: tuple[tuple[str, str], ...]  # (lost letter, heir letter)
    repetition: int = 3
    move_rule: int = 100
    # the FEN letters of promoChoice when some piece promotes by choice (the server's picker);
    # empty when every promotion has a fixed type (morph, Vanguard 4.5)
    promotion_choices: tuple[str, ...] = ()

    @cached_property
    def geometry(self) -> RectGeometry:
        return RectGeometry(self.files, self.ranks)

    @property
    def move_rule_claim(self) -> int:
        return self.move_rule

    @property
    def by_letter(self) -> dict[str, PieceRule]:
        return {p.letter: p for p in self.pieces}

    def type_index(self, letter: str) -> int:
        return next(i for i, p in enumerate(self.pieces) if p.letter == letter) + 1

    @cached_property
    def start_fen(self) -> str:
        """The position text of the array, with every recorded unmoved right."""
        def letter(cell: int) -> str:
            piece = self.array.get(cell)
            return "" if piece is None else piece[1] if piece[0] == 0 else piece[1].lower()

        rows = ([letter(y * self.files + x) for x in range(self.files)] for y in range(self.ranks - 1, -1, -1))
        recorded = sorted(c for c, (_, letter) in self.array.items() if self.by_letter[letter].recorded_unmoved)
        unmoved = "".join(chr(97 + c % self.files) + str(c // self.files + 1) for c in recorded) or "-"
        return f"{placement_text(rows)} w {unmoved} 0 1"


def rules_from_diagram(line: str, name: str = "diagram", title: str = "", letters: dict[str, str] | None = None,
                       king: str | None = None, prince: str | None = None,
                       succession: tuple[tuple[str, str], ...] = (),
                       hooks: dict[str, list[str]] | None = None, repetition: int = 3,
                       move_rule: int = 100, drawings: dict[str, str] | None = None) -> DiagramVariant:
    """The variant of a diagram line; IDs in `king`, `prince`, `succession` and `hooks` are diagram IDs."""
    d = parse_diagram(line)
    letters = dict(letters or {})
    for p in d.pieces:
        letters.setdefault(p.id, p.id)
        if len(letters[p.id]) != 1:
            raise DiagramError(f"piece {p.name!r}: ID {p.id!r} needs a one-letter FEN letter (letters=...)")
    if len(set(letters[p.id] for p in d.pieces)) != len(d.pieces):
        raise DiagramError("two pieces share a FEN letter")
    hooks = hooks or {}
    for pid, names in hooks.items():
        for h in names:
            if h not in PATTERN_HOOKS:
                raise DiagramError(f"unknown hook {h!r} (known: {', '.join(PATTERN_HOOKS)})")
    if king is None:
        royals = d.royals
        if len(royals) > 1 and prince is None:
            raise DiagramError(f"several royal pieces {royals}: say which is the King")
        king = royals[0] if royals else None
    promoters = d.choice_promoters
    choices = tuple(letters[c] for c in d.promo_choice) if promoters else ()
    pieces = []
    for p in d.pieces:
        pats = []
        for side in (0, 1):
            ps = patterns(p.xbetza, side)
            for h in hooks.get(p.id, ()):
                ps = PATTERN_HOOKS[h](ps)
            pats.append(ps)
        ranks = tuple(frozenset(int(s[1:]) - 1 for s in sq) for sq in (p.white, p.black))
        pieces.append(PieceRule(letters[p.id], p.id, p.name, p.xbetza, (pats[0], pats[1]),
                                letters[p.morph] if p.morph else None, ranks,
                                any(x.initial for x in pats[0]), choices if p.id in promoters else (),
                                (drawings or {}).get(p.id, "")))
    array = {}
    for p in d.pieces:
        for side, squares in ((0, p.white), (1, p.black)):
            for s in squares:
                array[(int(s[1:]) - 1) * d.files + ord(s[0]) - 97] = (side, letters[p.id])
    return DiagramVariant(name, title or name, d.files, d.ranks, tuple(pieces), array, d.promo_zone,
                        letters[king] if king else None, letters[prince] if prince else None,
                        tuple((letters[a], letters[b]) for a, b in succession), repetition, move_rule, choices)


@cache
def get_diagram_variant(name: str) -> DiagramVariant:
    """The diagram variant shipped as data/<name>.toml, read once; ValueError without one."""
    d = variant_data(__package__, name)
    royals = d.get("royals", {})
    return rules_from_diagram(d["diagram"], d["name"], d["title"], d.get("letters"), royals.get("king"),
                              royals.get("prince"), tuple((s["lost"], s["heir"]) for s in d.get("succession", ())),
                              d.get("hooks"), d.get("repetition", 3), d.get("move_rule", 100), d.get("drawings"))
