"""Compile a variant and a roster pair into per-cell move and attack tables.

Built once per (variant, rosters) and shared by every board using them: a variant's default tables
are kept; those of reprogrammed pieces and rosters live in caches bounded by their bytes
(`piece_cache`, `table_cache`, ceilings `PIECE_CACHE_BYTES`, `TABLE_CACHE_BYTES`). The generator then only
walks tuples: for each piece code and origin cell, groups of (kind, entries) with the move integer
already encoded; for each cell and attacking side, the leaps, lame paths and reverse rays that can
attack it.
"""
from __future__ import annotations

import random
import sys
import weakref
from collections.abc import Iterable

from .byte_lru import ByteLRU
from .encoding import CASTLE, DOUBLE, EP, MAX_CODE, PROMO_SHIFT, TO_SHIFT, code_of
from .program import Program, Roster
from .variant import Variant, load_variant

# group kinds: shape (leap, lame path, ray) x mode (move+capture, move only, capture only)
LEAP_MC, LEAP_M, LEAP_C, PAT_MC, PAT_M, PAT_C, RAY_MC, RAY_M, RAY_C, EP_CAPTURE = range(10)
# post-processing a piece's generated moves needs
POST_PROMO, POST_DEDUPE = 1, 2

NO_CELLS: frozenset[int] = frozenset()
MAX_HELD = 32  # pieces of one type a side can hold (more than it can ever own)


def mode_offset(move: bool, capture: bool) -> int:
    """The mode's offset within a shape's group kinds: move and capture 0, move only 1, capture only 2."""
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
        programmed: list = []  # the move tables of reprogrammed pieces
        for side in (0, 1):
            for ti, pt in enumerate(types, 1):
                code = code_of(side, ti)
                program = rosters[side].get(pt.letter)
                if variant.piece_compiler is not None:
                    self.gen[code], attack_entries = variant.piece_compiler(side, ti)
                else:
                    self.gen[code], attack_entries = compiled_piece(variant.name, side, ti, program)
                if program is not None:
                    programmed.append(self.gen[code])
                for shape, t, key, k in attack_entries:
                    if shape == 2:
                        raw[side][t][2].setdefault(key, {}).setdefault(k, set()).add(code)
                    else:
                        raw[side][t][shape].setdefault(key, set()).add(code)
        interned: dict[frozenset[int], frozenset[int]] = {}  # one object per set of codes: few distinct
        self.attacks = [[self._freeze_attacks(geo, t, raw[side][t], interned) for t in range(n)]
                        for side in (0, 1)]
        self._build_castling(variant)
        self._build_zobrist(variant)
        #: the memory these tables hold besides the default pieces' move tables (an upper estimate)
        self.nbytes = self._estimated_bytes(programmed, interned)

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
            mode = mode_offset(comp.move, comp.capture)
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
    def _freeze_attacks(geo, t, raw_t, interned: dict[frozenset[int], frozenset[int]]):
        def codes_of(codes) -> frozenset[int]:
            fs = frozenset(codes)
            return interned.setdefault(fs, fs)

        leaps, pats, rays = raw_t
        leap_t = tuple((a, codes_of(codes)) for a, codes in sorted(leaps.items()))
        pat_t = tuple((a, codes_of(codes), between) for (a, between), codes in sorted(pats.items()))
        ray_t = []
        for (dx, dy), by_dist in sorted(rays.items()):
            far = max(by_dist)
            ray = []
            for k in range(1, far + 1):
                a = geo.offset(t, -dx * k, -dy * k)
                ray.append((a, codes_of(by_dist.get(k, ()))))
            ray_t.append(tuple(ray))
        return leap_t, pat_t, tuple(ray_t)

    def _estimated_bytes(self, programmed: list, code_sets: Iterable[frozenset[int]]) -> int:
        """An estimate, never below the truth, of the memory these tables hold besides the move
        tables of pieces moving by default (kept once per variant, see `compiled_piece`): hash and
        attack tables (with their sets of codes) and the move tables of the `programmed` pieces.
        The move caches boards fill (`move_cache`, `tail_cache`) grow with the moves shown and are
        not counted."""
        n = self.size
        cell = _cell_bytes(n)
        total = MAX_CODE * list_bytes(n, KEY) + list_bytes(n, KEY) + list_bytes(len(self.z_castle), KEY)
        total += 12 * list_bytes(MAX_CODE) + 2 * list_bytes(n, INT)  # flags and tables per code and cell
        if self.z_hold is not None:
            total += 2 * len(self.z_hold[0]) * list_bytes(MAX_HELD + 1, KEY)
        pair = tuple_bytes(2) + cell
        for per_cell in self.attacks:
            total += list_bytes(n)
            for leap_t, pat_t, ray_t in per_cell:
                total += tuple_bytes(3) + tuple_bytes(len(leap_t), pair)
                total += tuple_bytes(len(pat_t)) + sum(tuple_bytes(3) + cell + tuple_bytes(len(b), cell)
                                                       for _, _, b in pat_t)
                total += tuple_bytes(len(ray_t)) + sum(tuple_bytes(len(ray), pair) for ray in ray_t)
        total += sum(_block(sys.getsizeof(codes)) for codes in code_sets)
        return total + sum(piece_bytes(gen, ()) for gen in programmed)

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


def _compile_piece(variant_name: str, side: int, type_index: int, program: Program | None):
    """Move table (per origin cell) and attack entries of one piece type for one side."""
    variant = load_variant(variant_name)
    geo = variant.geometry
    pt = variant.pieces[type_index - 1]
    fwd = 1 if side == 0 else -1
    last_rank = geo.ranks - 1 if side == 0 else 0
    components = (program.component(),) if program else pt.movement
    att: list[tuple] = []
    table = [Tables._compile_cell(geo, s, pt.pawn, components, fwd, last_rank, variant.en_passant, att)
             for s in range(geo.size)]
    return table, att


# -- memory estimates: CPython's object sizes (64-bit) rounded up to the allocator's 16-byte blocks, so
# that an estimate is never below the truth
def _block(nbytes: int) -> int:
    return (nbytes + 15) & ~15


INT = _block(32)   # an int below 2**60 (a move integer)
KEY = _block(36)   # a 64-bit hash key


def tuple_bytes(n: int, item: int = 0) -> int:
    """A tuple of `n` references, plus `item` bytes for each thing referred to."""
    return _block(40 + 8 * n) + n * item


def list_bytes(n: int, item: int = 0) -> int:
    """A list of `n` references (grown by appending: room for an eighth more), plus their things."""
    return _block(56 + 8 * (n + n // 8 + 8)) + n * item


def _cell_bytes(cells: int) -> int:
    """What a cell number takes: nothing on boards whose cells are ints CPython shares (up to 256)."""
    return 0 if cells <= 257 else INT


def piece_bytes(table: list, att: list | tuple) -> int:
    """An estimate, never below the truth, of the memory of one compiled piece (`compiled_piece`):
    its move table (per origin cell: groups of (target, move) entries, lame paths, rays) and its
    attack entries (shape, target, key, distance)."""
    cell = _cell_bytes(len(table))
    pair = tuple_bytes(2) + cell + INT
    total = list_bytes(len(table))
    for _, groups in table:
        total += tuple_bytes(2) + tuple_bytes(len(groups))
        for kind, entries in groups:
            total += tuple_bytes(2) + tuple_bytes(len(entries))
            if kind in (RAY_MC, RAY_M, RAY_C):
                total += sum(tuple_bytes(len(ray), pair) for ray in entries)
            elif kind in (PAT_MC, PAT_M, PAT_C):
                total += sum(tuple_bytes(3) + cell + INT + tuple_bytes(len(between), cell) for _, _, between in entries)
            elif kind == EP_CAPTURE:
                total += len(entries) * (tuple_bytes(3) + 2 * cell + INT)
            else:
                total += len(entries) * pair
    total += list_bytes(len(att))
    for shape, _, key, _ in att:  # a leap's key is a cell, a lame path's (origin, path), a ray's (dx, dy)
        total += tuple_bytes(4) + cell + (tuple_bytes(2) + cell + tuple_bytes(len(key[1]), cell) if shape == 1
                                          else tuple_bytes(2, INT) if shape == 2 else cell)
    return total


#: Ceilings of the caches of compiled tables for reprogrammed pieces and rosters, by estimated bytes
#: (`piece_bytes`, `Tables.nbytes`): whatever rosters are compiled (previews, games), the two hold
#: at most 144 MB together beyond each variant's default tables (one set per variant, kept);
#: `bench/roster_memory.py` measures about +167 MB of resident memory after 100 distinct maximal
#: previews. The ceilings count bytes, not entries, because a table set ranges from kilobytes to
#: tens of megabytes: one side's maximal super16 roster (11 pieces of 64 short slides) makes one of
#: about 58 MB; both sides' (about 110 MB) are past the ceiling and not cached, but found again
#: while a game's boards use them.
PIECE_CACHE_BYTES = 48 << 20
TABLE_CACHE_BYTES = 96 << 20
_default_pieces: dict[tuple[str, int, int], tuple[list, list]] = {}
_default_tables: dict[str, Tables] = {}
#: the caches for reprogrammed pieces and rosters (public: their accounting is what tools and tests read)
piece_cache: ByteLRU[tuple, tuple[list, list]] = ByteLRU(PIECE_CACHE_BYTES)
table_cache: ByteLRU[tuple, Tables] = ByteLRU(TABLE_CACHE_BYTES)
#: roster tables still used somewhere (a live game's boards) though evicted: found again, not rebuilt
_tables_in_use: weakref.WeakValueDictionary[tuple, Tables] = weakref.WeakValueDictionary()
_own_tables: dict[int, tuple[Variant, Tables]] = {}


def compiled_piece(variant_name: str, side: int, type_index: int, program: Program | None) -> tuple[list, list]:
    """(move table per origin cell, attack entries) of one piece type of a data-only variant for one
    side, moving by `program` (None: by default), compiled once and shared while cached."""
    if program is None:
        key = (variant_name, side, type_index)
        piece = _default_pieces.get(key)
        if piece is None:
            piece = _default_pieces[key] = _compile_piece(variant_name, side, type_index, None)
        return piece
    return piece_cache.get_or_make((variant_name, side, type_index, program),
                                   lambda: _compile_piece(variant_name, side, type_index, program),
                                   lambda piece: piece_bytes(*piece))


def tables_for(variant: Variant, rosters: tuple[Roster, Roster]) -> Tables:
    """Shared compiled tables for a data-only variant and a roster pair (a variant with its own
    piece compiler, e.g. a pasted diagram, keeps one set of tables for its lifetime)."""
    if variant.piece_compiler is not None:
        entry = _own_tables.get(id(variant))
        if entry is None or entry[0] is not variant:
            entry = _own_tables[id(variant)] = (variant, Tables(variant, rosters))
        return entry[1]
    if not any(rosters):
        tables = _default_tables.get(variant.name)
        if tables is None:
            tables = _default_tables[variant.name] = Tables(variant, rosters)
        return tables
    key = (variant.name, rosters[0].key(), rosters[1].key())
    tables = table_cache.get(key) or _tables_in_use.get(key)
    if tables is None:
        tables = _tables_in_use[key] = Tables(variant, (Roster(rosters[0]), Roster(rosters[1])))
    table_cache.put(key, tables, tables.nbytes)
    return tables
