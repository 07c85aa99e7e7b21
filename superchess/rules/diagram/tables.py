"""Diagram variants (Vanguard, pasted Interactive Diagrams) on the core's tables: a `Variant` built
from `DiagramVariant`, and its XBetza patterns compiled per piece code and origin cell.

* Single-leg patterns that leap or slide to an empty cell and/or capture an enemy there compile
  into the core's LEAP/RAY groups, lame leaps (``ncD``; ``nN`` as one entry per path) into PAT
  groups, with the move integer pre-encoded (the fixed promotion of a pawn type landing in the
  zone included, 4.5; a piece promoting by choice has one entry per promoChoice type there, a ray
  one copy per type) and their attack entries (R18).
* Everything else is kept per cell in `DiagramTables.walks`: initial-only rays (R11, the pawn
  types' 2-4 square pushes) and the multi-leg, lame-rider, hopping and unloading patterns
  (and the pattern hooks' results), merged into one `xbetza.pattern_trie` per piece code and walked
  when moves are generated. The cells from which they can capture are `walk_sources` (R18).
* A walked move that captures off its destination, stays on its origin, swaps or jumps is
  interned as a record ``(origin, dest, captured cells, kind)``; its move integer is
  ``origin | dest << 10 | MULTI | index << RECORD_SHIFT``, so applying it is one list lookup.
"""
from __future__ import annotations

import random

from ..core import hooks
from ..core.encoding import (
    CELL_MASK,
    MAX_CODE,
    MULTI,
    PROMO_SHIFT,
    RECORD_SHIFT,
    SIDE_SHIFT,
    TO_SHIFT,
    code_of,
)
from ..core.pieces import PieceType
from ..core.tables import LEAP_MC, PAT_MC, POST_DEDUPE, RAY_MC
from ..core.variant import Variant
from .variant import DiagramVariant
from .xbetza import INF, MovePattern, Req, cell_entries, pattern_trie

Record = tuple[int, int, tuple[int, ...], str]  # origin, destination, captured cells, kind


def is_plain(pat: MovePattern) -> bool:
    """One unblockable-or-sliding leg that moves to empty cells and/or captures enemies: compiled to
    rays of cells; everything else (multi-leg, lame, unload, friend captures) is walked."""
    if len(pat.legs) != 1:
        return False
    leg = pat.legs[0]
    return not leg.lame and not leg.unload and not leg.end & Req.FRIEND and \
        (not leg.end & Req.ENEMY or leg.takes & Req.ENEMY)


def _is_lame_leap(pat: MovePattern) -> bool:
    """A single lame leap (``nD``, ``ncH``; ``nN`` with its two paths, R9): the core's lame-path
    groups, one entry per path (open if any path is)."""
    if len(pat.legs) != 1 or pat.initial:
        return False
    leg = pat.legs[0]
    return bool(leg.lame) and leg.max_steps == 1 and not leg.unload and not leg.end & Req.FRIEND \
        and (not leg.end & Req.ENEMY or leg.takes & Req.ENEMY)


def _leg_steps(pats: tuple[MovePattern, ...], span: int):
    """Every (leg, cell before the step, cell after it) the legs of `pats` can walk through, as
    offsets from the origin, on some board whose longer side is `span`, whatever the occupancy."""
    for pat in pats:
        frontier = {(0, 0)}
        for leg in pat.legs:
            nxt = set()
            steps = min(leg.max_steps, span) if leg.max_steps != INF else span
            for x, y in frontier:
                for k in range(1, steps + 1):
                    before = (x + (k - 1) * leg.step[0], y + (k - 1) * leg.step[1])
                    p = (before[0] + leg.step[0], before[1] + leg.step[1])
                    if abs(p[0]) >= span or abs(p[1]) >= span:
                        break
                    nxt.add(p)
                    yield leg, before, p
            frontier = nxt


def capture_offsets(pats: tuple[MovePattern, ...], span: int) -> frozenset[tuple[int, int]]:
    """Every offset (from the origin) at which one of `pats` could capture on some board whose
    longer side is `span`."""
    return frozenset(p for leg, _, p in _leg_steps(pats, span) if leg.takes & Req.ENEMY and leg.end & Req.ENEMY)


def reach_offsets(pats: tuple[MovePattern, ...], span: int) -> frozenset[tuple[int, int]]:
    """Every offset (from the origin) whose content one of `pats` could inspect on some board whose
    longer side is `span`: the cells its legs may pass or end on, and their lame paths."""
    out: set[tuple[int, int]] = set()
    for leg, (px, py), p in _leg_steps(pats, span):
        out.add(p)
        out.update((px + a, py + b) for path in leg.lame for a, b in path)
    return frozenset(out)


class DiagramTables:
    """What the core position needs beyond `Tables` for a diagram variant: walked patterns per
    code and cell, their capture sources, move records, promotion, royals and succession."""

    def __init__(self, rules: DiagramVariant) -> None:
        self.rules = rules
        files, ranks = rules.files, rules.ranks
        self.files, self.ranks = files, ranks
        n = files * ranks
        self.records: list[Record] = []
        self._record_index: dict[Record, int] = {}
        # walks[code][cell] = (initial rays, the walked patterns' trie or None) or None
        self.walks: list[list | None] = [None] * MAX_CODE
        self._cell_walks: dict[tuple[int, int], tuple] = {}
        self._walk_memo: list[dict] = [{} for _ in range(MAX_CODE)]  # shared sub-walks per code
        self.morph = [0] * MAX_CODE        # pawn types: the type index they promote to
        self.choices: list[tuple[int, ...]] = [()] * MAX_CODE  # pieces promoting by choice: the types
        self.pawn_start = [frozenset()] * MAX_CODE  # pawn types: ranks where they are unmoved (R11)
        self.recorded_unmoved = [False] * MAX_CODE  # the unmoved right is kept in the position (R11)
        self.initial = [False] * MAX_CODE  # some pattern needs an unmoved piece
        self.in_zone = [[self._far(c, side) for c in range(n)] for side in (0, 1)]
        self.king = rules.type_index(rules.king) if rules.king else 0
        self.prince = rules.type_index(rules.prince) if rules.prince else 0
        self.succession = tuple((rules.type_index(a), rules.type_index(b)) for a, b in rules.succession)
        self.lost = [False] * MAX_CODE     # codes whose capture may hand their role to an heir (R16)
        rng = random.Random(f"unmoved:{rules.name}")
        self.z_unmoved = [rng.getrandbits(64) for _ in range(n)]
        raw_sources: list[list[dict[int, set[int]]]] = [[{} for _ in range(n)] for _ in (0, 1)]
        self._capture_offsets: dict[int, frozenset[tuple[int, int]]] = {}
        self._capture_cells: dict[tuple[int, int], tuple[int, ...]] = {}
        span = max(files, ranks)
        for side in (0, 1):
            for ti, rule in enumerate(rules.pieces, 1):
                code = code_of(side, ti)
                if rule.morph:
                    self.morph[code] = rules.type_index(rule.morph)
                self.choices[code] = tuple(rules.type_index(c) for c in rule.choices)
                if rule.pawn:
                    self.pawn_start[code] = rule.start_ranks[side]
                self.recorded_unmoved[code] = rule.recorded_unmoved
                self.initial[code] = rule.initial
                self.lost[code] = any(ti == lost for lost, _ in self.succession)
                walked = tuple(p for p in rule.pats[side] if not is_plain(p) and not _is_lame_leap(p))
                self._capture_offsets[code] = offsets = capture_offsets(walked, span)
                for dx, dy in offsets:
                    for a in range(n):
                        x, y = a % files + dx, a // files + dy
                        if 0 <= x < files and 0 <= y < ranks:
                            raw_sources[side][y * files + x].setdefault(a, set()).add(code)
        self._reach = {(side, ti): reach_offsets(
            tuple(p for p in rule.pats[side] if not is_plain(p) and not _is_lame_leap(p)), span)
            for side in (0, 1) for ti, rule in enumerate(rules.pieces, 1)}
        self._reach_cells: dict[tuple[int, int], frozenset[int]] = {}
        self.walk_sources = [[tuple((a, frozenset(codes)) for a, codes in sorted(raw_sources[side][t].items()))
                              for t in range(n)] for side in (0, 1)]

    def capture_cells(self, code: int, cell: int) -> tuple[int, ...]:
        """The cells on which the walked patterns of `code` on `cell` could capture (a walk for
        captures is skipped when none holds an enemy)."""
        key = (code, cell)
        out = self._capture_cells.get(key)
        if out is None:
            x0, y0 = cell % self.files, cell // self.files
            out = self._capture_cells[key] = tuple(
                c for dx, dy in self._capture_offsets[code]
                if (c := _cell(x0 + dx, y0 + dy, self.files, self.ranks)) is not None)
        return out

    def reach(self, code: int, cell: int) -> frozenset[int]:
        """The cells the walked patterns of `code` on `cell` may inspect (their attack depends on
        nothing else)."""
        key = (code, cell)
        out = self._reach_cells.get(key)
        if out is None:
            x0, y0 = cell % self.files, cell // self.files
            out = self._reach_cells[key] = frozenset(
                c for dx, dy in self._reach[(code >> SIDE_SHIFT, code & 63)]
                if (c := _cell(x0 + dx, y0 + dy, self.files, self.ranks)) is not None)
        return out

    def promotions(self, code: int) -> tuple[int, ...]:
        """The type indices `code` may become on landing in its promotion zone: the fixed `morph`
        (4.5), the promoChoice types, or none."""
        return (self.morph[code],) if self.morph[code] else self.choices[code]

    def _encodings(self, code: int, base: int) -> tuple[int, ...]:
        """The move integers of the plain move `base` of `code`: one per promotion type when it
        lands in the zone (promotion there is mandatory), else `base` alone."""
        promos = self.promotions(code)
        if promos and self.in_zone[code >> SIDE_SHIFT][(base >> TO_SHIFT) & CELL_MASK]:
            return tuple(base | p << PROMO_SHIFT for p in promos)
        return (base,)

    def _far(self, cell: int, side: int) -> bool:
        y = cell // self.files
        zone = self.rules.promo_zone
        return y >= self.ranks - zone if side == 0 else y < zone

    # -- compiling -----------------------------------------------------------------------------
    def compile_piece(self, side: int, type_index: int) -> tuple[list, list]:
        """Per-cell core groups and attack entries of one piece type for one side (the variant's
        `piece_compiler`); fills `walks` for the same code."""
        rule = self.rules.pieces[type_index - 1]
        code = code_of(side, type_index)
        files, ranks = self.files, self.ranks
        encodings = self._encodings
        copies = max(1, len(self.choices[code]))  # rays into the zone: one copy per promotion type
        table, att, walks = [], [], []
        plain, lame = [], []  # (pattern, leg, mode, captures) classified once for every cell
        seen = set()
        for pat in rule.pats[side]:
            leg = pat.legs[0]
            move, capture = bool(leg.end & Req.EMPTY), bool(leg.end & Req.ENEMY)
            entry = (pat, leg, 0 if move and capture else (1 if move else 2), capture)
            if is_plain(pat):
                if (pat.legs, pat.initial) not in seen:  # e.g. the Helepolis's R and sb(caf)0R
                    seen.add((pat.legs, pat.initial))
                    plain.append(entry)
            elif _is_lame_leap(pat):
                lame.append(entry)
        trie = pattern_trie(tuple(p for p in rule.pats[side] if not is_plain(p) and not _is_lame_leap(p)))
        for s in range(files * ranks):
            origin = (s % files, s // files)
            groups: dict[int, list] = {}
            targets: list[int] = []  # the move integers: the same twice asks for de-duplication
            initial_rays = []
            for pat, leg, mode, capture in plain:
                cells = [y * files + x for x, y in leg.cells_from(origin, files, ranks)]
                if not cells:
                    continue
                ms = [encodings(code, s | t << TO_SHIFT) for t in cells]
                rays = tuple(dict.fromkeys(tuple((t, e[min(i, len(e) - 1)]) for t, e in zip(cells, ms))
                                           for i in range(copies)))
                if pat.initial:
                    initial_rays.extend((entries, mode != 2, capture) for entries in rays)
                    continue
                targets.extend(m for ray in rays for _, m in ray)
                if leg.max_steps == 1:
                    groups.setdefault(LEAP_MC + mode, []).extend(ray[0] for ray in rays)
                    if capture:
                        att.append((0, cells[0], s, 0))
                else:
                    groups.setdefault(RAY_MC + mode, []).extend(rays)
                    if capture:
                        att.extend((2, t, leg.step, k) for k, t in enumerate(cells, 1))
            for pat, leg, mode, capture in lame:
                dx, dy = leg.step
                t = _cell(origin[0] + dx, origin[1] + dy, files, ranks)
                if t is None:
                    continue
                for path in leg.lame:
                    between = tuple(_cell(origin[0] + a, origin[1] + b, files, ranks) for a, b in path)
                    if None in between:  # a path off the board is blocked
                        continue
                    ms = encodings(code, s | t << TO_SHIFT)
                    targets.extend(ms)
                    groups.setdefault(PAT_MC + mode, []).extend((t, m, between) for m in ms)
                    if capture:
                        att.append((1, t, (s, between), 0))
            post = POST_DEDUPE if len(set(targets)) < len(targets) else 0
            table.append((post, tuple((kind, tuple(groups[kind])) for kind in sorted(groups))))
            walked = trie if any(leg.cells_from(origin, files, ranks) for leg in (n.leg for n in trie.children)) \
                else None
            walks.append((tuple(initial_rays), walked) if initial_rays or walked else None)
        self.walks[code] = walks
        return table, att

    # -- moves ---------------------------------------------------------------------------------
    def cell_walk(self, code: int, cell: int) -> tuple:
        """The walked patterns of `code` made concrete from `cell` (`xbetza.cell_entries`), made
        on first use and kept."""
        key = (code, cell)
        entries = self._cell_walks.get(key)
        if entries is None:
            trie = self.walks[code][cell][1]
            entries = self._cell_walks[key] = cell_entries(trie, cell, self.files, self.ranks, self._walk_memo[code])
        return entries

    def encode(self, origin: int, code: int, mv: tuple[int, tuple[int, ...], str]) -> tuple[int, ...]:
        """The move integers of a walked move ``(dest, captured cells, kind)`` of `code` from
        `origin`: one per promoChoice type when a piece promoting by choice lands in its zone (the
        type in the PROMO field, also of a record: `changes` reads it), else one."""
        dest, caps, kind = mv
        if kind == "normal":  # one displacement, at most the destination captured
            return self._encodings(code, origin | dest << TO_SHIFT)
        m = self.intern((origin, dest, caps, kind))
        if self.choices[code] and dest != origin and self.in_zone[code >> SIDE_SHIFT][dest]:
            return tuple(m | p << PROMO_SHIFT for p in self.choices[code])
        return (m,)

    def intern(self, rec: Record) -> int:
        """The move integer applied through `rec` (its promotion and succession follow from it)."""
        i = self._record_index.get(rec)
        if i is None:
            i = self._record_index[rec] = len(self.records)
            self.records.append(rec)
        return rec[0] | rec[1] << TO_SHIFT | MULTI | i << RECORD_SHIFT


def _cell(x: int, y: int, files: int, ranks: int) -> int | None:
    return y * files + x if 0 <= x < files and 0 <= y < ranks else None


_parts: dict[int, tuple[DiagramVariant, Variant, DiagramTables]] = {}


def diagram_parts(rules: DiagramVariant) -> tuple[Variant, DiagramTables]:
    """The core `Variant` of a diagram variant and its `DiagramTables`, made once per rules object."""
    entry = _parts.get(id(rules))
    if entry is None or entry[0] is not rules:
        dt = DiagramTables(rules)
        pieces = [PieceType(letter=p.letter, name=p.name, movement=(), royal=p.letter in (rules.king, rules.prince),
                            checkable=p.letter == rules.king, pawn=p.pawn, holdable=False) for p in rules.pieces]
        variant = Variant(
            name=rules.name, title=rules.title, geometry=rules.geometry, pieces=pieces, start_fen=rules.start_fen,
            en_passant=False, reprogrammable=False, repetition_claim=rules.repetition,
            repetition_auto=rules.repetition, move_rule_claim=rules.move_rule, move_rule_auto=rules.move_rule,
            promotion_choices=list(rules.promotion_choices),
            promotion_default=rules.promotion_choices[0] if rules.promotion_choices else "", castling=[],
            capture_consequence=None,
            insufficient_material=hooks.INSUFFICIENT_MATERIAL["never"], piece_compiler=dt.compile_piece)
        entry = _parts[id(rules)] = (rules, variant, dt)
        _by_variant[id(variant)] = (variant, dt)
    return entry[1], entry[2]


_by_variant: dict[int, tuple[Variant, DiagramTables]] = {}


def diagram_tables_of(variant: Variant) -> DiagramTables:
    """The `DiagramTables` (and so the rules) of a diagram variant made by `diagram_parts`."""
    return _by_variant[id(variant)][1]
