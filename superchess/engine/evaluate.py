"""Static evaluation for any variant and roster pair, in centipawns; its parameters are data
(eval.toml: `[tables]` build the tables below, `[terms]` weigh what is computed per position).

Most of the evaluation lives in per-(piece code, cell) tables, so the search can keep it up to date
incrementally (a move changes a few cells; see `Evaluator.delta`):
- material: values derived from movement (values.py), per side's roster;
- mobility, approximated statically: the piece's effective mobility at that cell on an empty board
  minus its average (a centralised Knight or Prince is worth more than one on the rim);
- pawn advancement toward promotion, growing with the rank and weighted toward the endgame by the
  gain a promotion would bring (plus a small middlegame bonus for advancing central pawns);
- the King: stay home in the middlegame, centralise in the endgame;
- for a variant with a learned table file (learned_tables.py) and the standard rosters, its
  per-(piece, cell) middlegame and endgame corrections.
Each entry packs a middlegame score, an endgame score and a phase weight in one integer (PACK);
the phase (non-pawn material left) blends the two.

King safety is computed from the position when asked (`king_safety`): own pieces next to the
King shelter it (a Fortress most: under super16's Fortress rule it garrisons the King's neighbours,
so non-royal attackers that capture them die too), and enemy pieces near the King, weighted by
value and closeness, threaten it. The search only pays for it when the cheap part of the score is
near the window (lazy evaluation). The native search (native/src/search/eval.rs) adds pawn
structure and weighs royal attackers, from the same tables and `[terms]`, and for orthodox chess
the correction of a learned network (network.py).
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from ..rules.core.byte_lru import ByteLRU
from ..rules.core.encoding import MAX_CODE, code_of
from ..rules.core.program import Roster
from ..rules.core.tables import INT, list_bytes, tables_for
from ..rules.core.variant import Variant, load_variant
from . import learned_tables, network
from .diagram_values import material as diagram_material
from .values import piece_profile, piece_values

SHIFT = 21
PACK = 1 << SHIFT
HALF = PACK >> 1


@lru_cache(maxsize=1)
def default_params() -> dict[str, dict[str, float]]:
    """eval.toml: {"tables": {...}, "terms": {...}}."""
    return tomllib.loads(resources.files(__package__).joinpath("eval.toml").read_text())


TEMPO = default_params()["terms"]["tempo"]
SHIELD_CAP = default_params()["terms"]["shield_cap"]
LAZY_MARGIN = default_params()["terms"]["lazy_margin"]


def pack(mg: int, eg: int, ph: int) -> int:
    return mg + (eg << SHIFT) + (ph << (2 * SHIFT))


def unpack(x: int) -> tuple[int, int, int]:
    hi = (x + HALF) >> SHIFT
    mg = x - (hi << SHIFT)
    ph = (hi + HALF) >> SHIFT
    eg = hi - (ph << SHIFT)
    return mg, eg, ph


class Evaluator:
    """Evaluation tables for one variant and roster pair (cached: see `evaluator_for`), built with
    `params` (eval.toml's by default), the variant's learned corrections unless `learned` is
    False (what they are fitted against) and its network's unless `corrected` is False (what the
    network is trained against)."""

    def __init__(self, variant_name: str | Variant, rosters: tuple[Roster, Roster],
                 params: dict[str, dict[str, float]] | None = None, learned: bool = True,
                 corrected: bool = True) -> None:
        variant = load_variant(variant_name) if isinstance(variant_name, str) else variant_name
        self.variant = variant
        self.params = params or default_params()
        p = self.params["tables"]
        geo = variant.geometry
        self.tables = tables_for(variant, rosters)
        n = geo.size
        files, ranks = geo.files, geo.ranks
        scale = 8 / max(files, ranks)
        self.pst: list[list[int]] = [[0] * n for _ in range(MAX_CODE)]
        self.value = [0] * MAX_CODE       # material value per code (ordering, SEE-lite, delta pruning)
        self.order_value = [0] * MAX_CODE  # as value, but Kings count as the most valuable attacker
        self.attack_weight = [0] * MAX_CODE
        self.shield = [0] * MAX_CODE
        self.phase_max = 1
        self.fortress = [0, 0]
        if variant.piece_compiler is None:
            values = [piece_values(variant.name, rosters[s], s) for s in (0, 1)]

            def profile(side: int, letter: str) -> tuple[float, tuple[float, ...]]:
                return piece_profile(variant.name, rosters[side], side, letter)
        else:  # a diagram variant (Vanguard): from its XBetza patterns
            values, profile = diagram_material(variant)
        top = max(max(v.values()) for v in values)
        # learned corrections fit one built-in variant's pieces: not reprogrammed rosters, not a diagram variant
        standard = not any(rosters) and variant.piece_compiler is None
        corrections = learned_tables.load(variant) if learned and standard else None
        #: the learned network whose correction the native search adds, when the variant has one
        self.network = network.load(variant) if learned and corrected and standard else None
        for side in (0, 1):
            sign = 1 if side == 0 else -1
            promo_best = max((values[side][c] for c in variant.promotion_choices), default=0)
            for ti, pt in enumerate(variant.pieces, 1):
                code = code_of(side, ti)
                v = values[side][pt.letter]
                avg, per_cell = profile(side, pt.letter)
                self.value[code] = v
                self.order_value[code] = v if not pt.checkable else 2 * top + 100
                self.attack_weight[code] = 0 if pt.checkable or pt.pawn else max(1, int(v // p["attack_divisor"]))
                self.shield[code] = p["shield_pawn"] if pt.pawn else p["shield_other"]
                if pt.letter == "F" and variant.capture_consequence is not None:
                    self.shield[code] = p["shield_fortress"]
                    self.fortress[side] = code
                ph = 0 if (pt.pawn or pt.checkable) else v
                row = self.pst[code]
                for cell in range(n):
                    f, r = geo.coords[cell]
                    own_rank = r if side == 0 else ranks - 1 - r
                    if pt.checkable:
                        centre = max(abs(f - (files - 1) / 2), abs(r - (ranks - 1) / 2)) * scale
                        mg = int(-p["king_home_mg"] * min(own_rank, 4))
                        eg = int(p["king_centre_eg"] * (4 - centre))
                    else:
                        mob = per_cell[cell] - avg
                        mg = v + int(p["mobility_mg"] * mob)
                        eg = v + int(p["mobility_eg"] * mob)
                        if pt.pawn and own_rank < ranks - 1:
                            frac = max(0, own_rank - 1) / max(1, ranks - 3)
                            mg += int(p["pawn_mg"] * frac * frac)
                            central = 1 - abs(f - (files - 1) / 2) / ((files - 1) / 2)
                            mg += int(p["pawn_centre_mg"] * max(0.0, 2 * central - 1) * min(own_rank - 1, 2))
                            eg += int(p["pawn_eg_share"] * max(0, promo_best - v) * frac * frac
                                      + p["pawn_eg_linear"] * frac)
                    if corrections and pt.letter in corrections:
                        own = learned_tables.own_cell(geo, cell, side)
                        mg += corrections[pt.letter][0][own]
                        eg += corrections[pt.letter][1][own]
                    row[cell] = sign * mg + (sign * eg << SHIFT) + (ph << (2 * SHIFT))
        # phase: the non-pawn material of the variant's start position
        start = variant.start_fen.split()[0]
        counts: dict[str, int] = {}
        for ch in start:
            if ch.isalpha():
                counts[ch] = counts.get(ch, 0) + 1
        total = 0
        for ch, k in counts.items():
            pt = variant.by_letter.get(ch.upper())
            if pt and not pt.pawn and not pt.checkable:
                total += k * values[0 if ch.isupper() else 1][ch.upper()]
        self.phase_max = max(1, total)
        self.zone_radius = max(2, (max(files, ranks) + 4) // 6)
        # Chebyshev distance between cells
        self.dist = [[max(abs(geo.coords[a][0] - geo.coords[b][0]), abs(geo.coords[a][1] - geo.coords[b][1]))
                      for b in range(n)] for a in range(n)]
        self.adjacent = geo.adjacent

    # -- incremental part -------------------------------------------------------------------
    def packed(self, pos) -> int:
        """The packed table score of a position, from scratch."""
        pst = self.pst
        board = pos.board
        return sum(pst[board[c]][c] for s in (0, 1) for c in pos.occ[s])

    def delta(self, pos, m: int) -> int:
        """How the packed score changes if move `m` is made (call before making it)."""
        board = pos.board
        pst = self.pst
        old: dict[int, int] = {}
        new: dict[int, int] = {}
        for cell, code in pos.changes(m):
            if cell not in old:
                old[cell] = board[cell]
            new[cell] = code
        return sum(pst[code][cell] - pst[old[cell]][cell] for cell, code in new.items())

    def blend(self, packed: int) -> tuple[int, int]:
        """(score for Player 1 from the tables, phase 0..phase_max)."""
        mg, eg, ph = unpack(packed)
        pm = self.phase_max
        if ph > pm:  # a plain comparison: this runs at every quiescence node
            ph = pm
        return (mg * ph + eg * (pm - ph)) // pm, ph

    # -- king safety --------------------------------------------------------------------------
    def king_safety(self, pos) -> int:
        """Middlegame King safety, for Player 1 (positive = Player 1's King safer)."""
        board = pos.board
        kings = pos.kings
        total = 0
        shield = self.shield
        weight = self.attack_weight
        radius = self.zone_radius
        own = self.tables.own
        for side in (0, 1):
            k = kings[side]
            if k < 0:
                continue
            mine = own[side]
            cover = 0
            for c in self.adjacent[k]:
                p = board[c]
                if p and mine[p]:
                    cover += shield[p]
            cover = min(cover, SHIELD_CAP)
            dk = self.dist[k]
            danger = 0
            count = 0
            for c in pos.occ[side ^ 1]:
                d = dk[c]
                if d <= radius:
                    w = weight[board[c]]
                    if w:
                        danger += w * (radius + 1 - d)
                        count += 1
            s = cover - danger * min(count, 4) // 4
            total += s if side == 0 else -s
        return total

    def evaluate(self, pos, packed: int) -> int:
        """Full evaluation from the side to move's point of view."""
        score, ph = self.blend(packed)
        score += self.king_safety(pos) * ph // self.phase_max
        return (score if pos.side == 0 else -score) + TEMPO


#: Ceiling of the evaluator cache, by estimated bytes (`evaluator_bytes`): an evaluator holds its
#: piece-square tables and, for reprogrammed rosters, its compiled tables.
EVALUATOR_CACHE_BYTES = 64 << 20
_evaluators: ByteLRU[tuple, Evaluator] = ByteLRU(EVALUATOR_CACHE_BYTES)


def evaluator_bytes(ev: Evaluator, rosters: tuple[Roster, Roster]) -> int:
    """An estimate, never below the truth, of what an evaluator holds (its tables: only reprogrammed
    ones, the default ones are kept anyway)."""
    own = len(ev.pst) * list_bytes(ev.tables.size, INT) + 5 * list_bytes(len(ev.value), INT)
    return own + (ev.tables.nbytes if any(rosters) else 0)


def evaluator_for(variant: str | Variant, rosters: tuple[Roster, Roster]) -> Evaluator:
    """The cached evaluator of a variant (by name, or a core `Variant`) and roster pair."""
    if isinstance(variant, Variant):
        if variant.piece_compiler is not None:  # a diagram variant: one evaluator per variant object
            entry = _own_evaluators.get(id(variant))
            if entry is None or entry[0] is not variant:
                entry = _own_evaluators[id(variant)] = (variant, Evaluator(variant, rosters))
            return entry[1]
        variant = variant.name
    return _evaluators.get_or_make((variant, rosters[0].key(), rosters[1].key()),
                                   lambda: Evaluator(variant, (Roster(rosters[0]), Roster(rosters[1]))),
                                   lambda ev: evaluator_bytes(ev, rosters))


_own_evaluators: dict[int, tuple[Variant, Evaluator]] = {}


def evaluate(board) -> int:
    """Evaluation of a board on the core's position from the side to move's point of view (for tools and tests)."""
    pos = board.engine_position()
    ev = evaluator_for(pos.variant, pos.rosters)
    return ev.evaluate(pos, ev.packed(pos))
