"""Compile a variant and a roster pair into per-cell move and attack tables.

Built once per (variant, rosters) and shared by every board using them. The generator then only
walks tuples: for each piece code and origin cell, groups of (kind, entries) with the move integer
already encoded; for each cell and attacking side, the leaps, lame paths and reverse rays that can
attack it.
"""
from __future__ import annotations

import random
from functools import lru_cache

from .encoding import CASTLE, DOUBLE, EP, MAX_CODE, PROMO_SHIFT, TO_SHIFT, code_of
from .program import Program, Roster
from .variant import Variant

# group kinds: shape (leap, lame path, ray) x mode (move+capture, move only, capture only)
LEAP_MC, LEAP_M, LEAP_C, PAT_MC, PAT_M, PAT_C, RAY_MC, RAY_M, RAY_C, EP_CAPTURE = range(10)
# post-processing a piece's generated moves needs
POST_PROMO, POST_DEDUPE = 1, 2

NO_CELLS: frozenset[int] = frozenset()
MAX_HELD = 32  # pieces of one type a side can hold (more than it can ever own)


def _mode_offset(move: bool, capture: bool) -> int:
    return 0 if (move and capture) else (1 if move else 2)


class Tables:
    def __init__(self, variant: Variant, rosters: tuple[Roster, Roster]) -> None:
        geo = variant.geometry
        self.variant = variant
        self.size = geo.size
        n = geo.size
        types = variant.pieces
        # per code: flags
        self.royal = [False] * MAX_CODE
        self.pawn = [False] * MAX_CODE
        self.checkable = [False] * MAX_CODE
        self.own = [[False] * MAX_CODE for _ in range(2)]
        self.gen: list[list | None] = [None] * MAX_CODE
        self.king_code = [0, 0]
        self.holdable = [False] * MAX_CODE  # a captured piece of this code joins its owner's holdings
        self.move_cache: dict = {}  # move integer -> public Move, filled by boards using these tables
        self.tail_cache: dict[int, str] = {}  # move integer -> its text after the origin square
        self.symbol = [""] * MAX_CODE  # FEN letter: upper case for Player 1, lower case for Player 2
        for side in (0, 1):
            for ti, pt in enumerate(types, 1):
                code = code_of(side, ti)
                self.own[side][code] = True
                self.symbol[code] = pt.letter if side == 0 else pt.letter.lower()
                self.royal[code] = pt.royal
                self.pawn[code] = pt.pawn
                self.checkable[code] = pt.checkable
                self.holdable[code] = variant.holdings and pt.holdable
                if pt.checkable:
                    self.king_code[side] = code
        self.enemy = [self.own[1], self.own[0]]
        self.promotions = [[code_of(side, variant.type_index(c)) & 63 for c in variant.promotion_choices]
                           for side in (0, 1)]
        # attack tables: attacks[side][cell] = (leaps, lame paths, reverse rays)
        raw = [[({}, {}, {}) for _ in range(n)] for _ in range(2)]
        for side in (0, 1):
            for ti, pt in enumerate(types, 1):
                code = code_of(side, ti)
                if variant.piece_compiler is not None:
                    self.gen[code], attack_entries = variant.piece_compiler(side, ti)
                else:
                    self.gen[code], attack_entries = _compile_piece(variant.name, side, ti,
                                                                    rosters[side].get(pt.letter))
                for shape, t, key, k in attack_entries:
                    if shape == 2:
                        raw[side][t][2].setdefault(key, {}).setdefault(k, set()).add(code)
                    else:
                        raw[side][t][shape].setdefault(key, set()).add(code)
        self.attacks = [[self._freeze_attacks(geo, t, raw[side][t]) for t in range(n)] for side in (0, 1)]
        self._build_castling(variant)
        self._build_zobrist(variant)

    @staticmethod
    def _compile_cell(geo, s, pawn, components, fwd, last_rank, en_passant, att):
        """Groups for a piece standing on `s`; its attacks are added to `att` as
        (shape, target, key, distance) with shape 0 leap, 1 lame path, 2 ray."""
        groups: dict[int, list] = {}
        ep_entries = []
        targets: list[int] = []
        promo = False
        f0, r0 = geo.coords[s]
        own_rank = (r0 if fwd == 1 else geo.ranks - 1 - r0) + 1
        for comp in components:
            if comp.ranks and own_rank not in comp.ranks:
                continue
            mode = _mode_offset(comp.move, comp.capture)
            for shape in comp.shapes:
                dx, dy = shape.target[0], shape.target[1] * fwd
                if shape.slide_range:
                    ray = []
                    k = 1
                    while k <= shape.slide_range:
                        t = geo.offset(s, dx * k, dy * k)
                        if t is None:
                            break
                        ray.append(t)
                        k += 1
                    if not ray:
                        continue
                    entries = []
                    for k, t in enumerate(ray, 1):
                        m = s | t << TO_SHIFT
                        if pawn and en_passant and (dx * k, dy * k) == (0, 2 * fwd):
                            m |= DOUBLE
                        entries.append((t, m))
                        targets.append(t)
                        promo |= pawn and geo.coords[t][1] == last_rank
                        if comp.capture:
                            att.append((2, t, (dx, dy), k))
                    if pawn and en_passant and comp.capture and dx in (1, -1) and dy == fwd:
                        ep_entries.append((ray[0], s | ray[0] << TO_SHIFT | EP, geo.offset(s, dx, 0)))
                    groups.setdefault(RAY_MC + mode, []).append(tuple(entries))
                else:
                    t = geo.offset(s, dx, dy)
                    if t is None:
                        continue
                    between = tuple(geo.offset(s, bx, by * fwd) for bx, by in shape.between)
                    if None in between:
                        continue
                    m = s | t << TO_SHIFT
                    if pawn and en_passant and (dx, dy) == (0, 2 * fwd):
                        m |= DOUBLE
                    targets.append(t)
                    promo |= pawn and geo.coords[t][1] == last_rank
                    if between:
                        groups.setdefault(PAT_MC + mode, []).append((t, m, between))
                        if comp.capture:
                            att.append((1, t, (s, between), 0))
                    else:
                        groups.setdefault(LEAP_MC + mode, []).append((t, m))
                        if comp.capture:
                            att.append((0, t, s, 0))
                        if pawn and en_passant and comp.capture and dx in (1, -1) and dy == fwd:
                            ep_entries.append((t, m | EP, geo.offset(s, dx, 0)))
        if ep_entries:
            groups[EP_CAPTURE] = list(dict.fromkeys(ep_entries))
        post = (POST_PROMO if promo else 0) | (POST_DEDUPE if len(set(targets)) < len(targets) else 0)
        # move+capture leaps first: the commonest kind, tested first by the generator
        ordered = tuple((kind, tuple(groups[kind])) for kind in sorted(groups))
        return post, ordered

    @staticmethod
    def _freeze_attacks(geo, t, raw_t):
        leaps, pats, rays = raw_t
        leap_t = tuple((a, frozenset(codes)) for a, codes in sorted(leaps.items()))
        pat_t = tuple((a, frozenset(codes), between) for (a, between), codes in sorted(pats.items()))
        ray_t = []
        for (dx, dy), by_dist in sorted(rays.items()):
            far = max(by_dist)
            ray = []
            for k in range(1, far + 1):
                a = geo.offset(t, -dx * k, -dy * k)
                ray.append((a, frozenset(by_dist.get(k, ()))))
            ray_t.append(tuple(ray))
        return leap_t, pat_t, tuple(ray_t)

    def _build_castling(self, variant: Variant) -> None:
        geo = variant.geometry
        self.castle_letters: list[str] = []
        self.castles: list[list[tuple]] = [[], []]
        self.castle_entries: list[tuple] = []
        self.castle_keep = [-1] * geo.size  # rights kept when a move touches the cell
        idx = 0
        for side in (0, 1):
            for c in variant.castling:
                def mirror(cell: int) -> int:
                    if side == 0:
                        return cell
                    f, r = geo.coords[cell]
                    return geo.cell(f, geo.ranks - 1 - r)
                kf, kt = mirror(c.king[0]), mirror(c.king[1])
                rf, rt = mirror(c.rook[0]), mirror(c.rook[1])
                lo = min(kf, kt, rf, rt)
                hi = max(kf, kt, rf, rt)
                empty = tuple(x for x in range(lo, hi + 1) if x not in (kf, rf))
                step = 1 if kt > kf else -1
                passing = tuple(range(kf + step, kt + step, step))
                bit = 1 << idx
                entry = (bit, kf, kt, rf, rt, empty, passing, kf | kt << TO_SHIFT | CASTLE | idx << PROMO_SHIFT)
                self.castles[side].append(entry)
                self.castle_entries.append(entry)
                self.castle_letters.append(c.right.upper() if side == 0 else c.right.lower())
                self.castle_keep[kf] &= ~bit
                self.castle_keep[rf] &= ~bit
                idx += 1

    def _build_zobrist(self, variant: Variant) -> None:
        rng = random.Random(f"zobrist:{variant.name}")
        n = self.size
        self.z_piece = [[0] * n] + [[rng.getrandbits(64) for _ in range(n)] for _ in range(1, MAX_CODE)]
        bits = [rng.getrandbits(64) for _ in self.castle_entries]
        self.z_castle = []
        for mask in range(1 << len(bits)):
            h = 0
            for i, b in enumerate(bits):
                if mask >> i & 1:
                    h ^= b
            self.z_castle.append(h)
        self.z_ep = [rng.getrandbits(64) for _ in range(n)]
        self.z_side = rng.getrandbits(64)
        # holdings: one key per (side, type, count); drawn after the others so other hashes stay put
        self.z_hold = [[[rng.getrandbits(64) for _ in range(MAX_HELD + 1)] for _ in range(len(variant.pieces) + 1)]
                       for _ in (0, 1)] if variant.holdings else None


@lru_cache(maxsize=512)
def _compile_piece(variant_name: str, side: int, type_index: int, program: Program | None):
    """Move table (per origin cell) and attack entries of one piece type for one side."""
    from .variant import get_variant
    variant = get_variant(variant_name)
    geo = variant.geometry
    pt = variant.pieces[type_index - 1]
    fwd = 1 if side == 0 else -1
    last_rank = geo.ranks - 1 if side == 0 else 0
    components = (program.component(),) if program else pt.movement
    att: list[tuple] = []
    table = [Tables._compile_cell(geo, s, pt.pawn, components, fwd, last_rank, variant.en_passant, att)
             for s in range(geo.size)]
    return table, att


@lru_cache(maxsize=64)
def _tables(variant_name: str, roster_key: tuple) -> Tables:
    from .variant import get_variant
    variant = get_variant(variant_name)
    rosters = (Roster(roster_key[0]), Roster(roster_key[1]))
    return Tables(variant, rosters)


_own_tables: dict[int, tuple[Variant, Tables]] = {}


def tables_for(variant: Variant, rosters: tuple[Roster, Roster]) -> Tables:
    """Shared compiled tables for a registered variant and a roster pair (a variant with its own
    piece compiler, e.g. a pasted diagram, keeps one set of tables for its lifetime)."""
    if variant.piece_compiler is not None:
        entry = _own_tables.get(id(variant))
        if entry is None or entry[0] is not variant:
            entry = _own_tables[id(variant)] = (variant, Tables(variant, rosters))
        return entry[1]
    return _tables(variant.name, (rosters[0].key(), rosters[1].key()))
