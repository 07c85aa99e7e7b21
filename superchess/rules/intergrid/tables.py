"""Compile a two-lattice variant (InterGrid) into per-cell move and attack tables.

As `core/tables.py` does for one lattice, each piece code and origin cell gets groups of pre-encoded move
integers; here every entry also carries the **barrier** of each unit step it takes: two cells of the
other layer that bar the step when both are occupied (one cell written twice; a leap that is not a
unit step, the Knight's, carries the sentinel cell `never`, which is always empty). The generator
(`position.py`) only walks these tuples. Reverse tables give, per target cell and side, the
pieces that could move there: onto an occupied cell (capture) or onto an empty one (a quiet move,
which matters because a point-piece moving to a corner encloses a square, InterGrid 5).
"""
from __future__ import annotations

import random
from functools import lru_cache

from ..core.encoding import CASTLE, DOUBLE, EP, MAX_CODE, PROMO_SHIFT, TO_SHIFT, code_of
from ..core.tables import EP_CAPTURE, LEAP_MC, PAT_MC, RAY_MC, mode_offset  # the group kinds of tables.py
from .geometry import SQUARES
from .variant import IntergridVariant, get_intergrid_variant

CAPTURE, QUIET = 0, 1  # the two reverse tables: onto an occupied cell, onto an empty one


class IntergridTables:
    def __init__(self, variant: IntergridVariant) -> None:
        geo = variant.geometry
        self.variant = variant
        self.geometry = geo
        self.size = geo.size
        self.never = geo.size  # the sentinel cell: boards have size + 1 cells, the last always empty
        self.own = [[False] * MAX_CODE for _ in (0, 1)]
        self.pawn = [False] * MAX_CODE
        self.checkable = [False] * MAX_CODE
        self.layer_of_code = [0] * MAX_CODE
        self.symbol = [""] * MAX_CODE
        self.king_code = [0, 0]
        self.rook_code = [0, 0]
        self.gen: list[list | None] = [None] * MAX_CODE
        raw = [[[{} for _ in range(self.size)] for _ in (CAPTURE, QUIET)] for _ in (0, 1)]
        ep_raw: list[list[list]] = [[[] for _ in range(self.size)] for _ in (0, 1)]
        for side in (0, 1):
            for ti, (pt, layer) in enumerate(zip(variant.pieces, variant.layers), 1):
                code = code_of(side, ti)
                self.own[side][code] = True
                self.pawn[code] = pt.pawn
                self.checkable[code] = pt.checkable
                self.layer_of_code[code] = layer
                self.symbol[code] = pt.letter if side == 0 else pt.letter.lower()
                if pt.checkable:
                    self.king_code[side] = code
                if pt.castles == "rook":
                    self.rook_code[side] = code
                promos = tuple(variant.type_index(layer, c) for c in variant.promotion_choices)
                self.gen[code] = [self._compile_cell(s, code, side, pt, promos, raw[side], ep_raw[side])
                                  if geo.layer[s] == layer else ((), ()) for s in range(self.size)]
        self.enemy = [self.own[1], self.own[0]]
        self.reach = [[[self._freeze(t, raw[side][mode][t]) for t in range(self.size)]
                       for mode in (CAPTURE, QUIET)] for side in (0, 1)]
        self.reach_ep = [[tuple(e) for e in ep_raw[side]] for side in (0, 1)]
        self.enclosures = [tuple((p, geo.opposite_square(s, p) if not geo.is_edge(p) else -1)
                                 for p in geo.corners[s]) for s in range(geo.point_base)] + \
                          [tuple((s, geo.opposite_corner(s, p)) for s in geo.around[p])
                           for p in range(geo.point_base, geo.size)]
        # per square: (corner, the corner diagonally opposite), for enclosure attacks (5)
        self.corner_pairs = [tuple((p, geo.opposite_corner(s, p)) for p in geo.corners[s])
                             for s in range(geo.point_base)]
        self._build_castling()
        self._build_zobrist()

    def _bar(self, cell: int, dx: int, dy: int) -> tuple[int, int]:
        return self.geometry.barrier(cell, dx, dy) or (self.never, self.never)

    def _compile_cell(self, s, code, side, pt, promos, raw, ep_raw):
        """Move groups of the piece `code` on `s`; its reach entries go into `raw` / `ep_raw`."""
        geo = self.geometry
        layer = geo.layer[s]
        height = geo.dims[layer][1]
        fwd = 1 if side == 0 else -1
        last_row = height - 1 if side == 0 else 0
        y0 = geo.coords[s][1]
        own_rank = (y0 if fwd == 1 else height - 1 - y0) + 1
        groups: dict[int, list] = {}
        ep_entries = []

        def encoded(t: int, double: bool) -> list[int]:
            m = s | t << TO_SHIFT | (DOUBLE if double else 0)
            if pt.pawn and geo.coords[t][1] == last_row:
                return [m | p << PROMO_SHIFT for p in promos]
            return [m]

        def add_reach(t: int, comp, key) -> None:
            for mode, allowed in ((CAPTURE, comp.capture), (QUIET, comp.move)):
                if allowed:
                    raw[mode][t].setdefault(key, set()).add(code)

        for comp in pt.movement:
            if comp.ranks and own_rank not in comp.ranks:
                continue
            mode = mode_offset(comp.move, comp.capture)
            for shape in comp.shapes:
                dx, dy = shape.target[0], shape.target[1] * fwd
                if shape.slide_range:
                    ray, prev, k = [], s, 1
                    while k <= shape.slide_range:
                        t = geo.offset(s, dx * k, dy * k)
                        if t is None:
                            break
                        b1, b2 = self._bar(prev, dx, dy)
                        ray.extend((t, m, b1, b2) for m in encoded(t, False))
                        add_reach(t, comp, ("ray", dx, dy, k))
                        prev, k = t, k + 1
                    if ray:
                        groups.setdefault(RAY_MC + mode, []).append(tuple(ray))
                    continue
                t = geo.offset(s, dx, dy)
                between = tuple(geo.offset(s, bx, by * fwd) for bx, by in shape.between)
                if t is None or None in between:
                    continue
                double = pt.pawn and (dx, dy) == (0, 2 * fwd)
                if between:  # a step through empty cells: every unit step has its barrier
                    cells = (s,) + between
                    ux, uy = (dx // (len(between) + 1), dy // (len(between) + 1))
                    bars = tuple(self._bar(c, ux, uy) for c in cells)
                    groups.setdefault(PAT_MC + mode, []).extend((t, m, between, bars) for m in encoded(t, double))
                    add_reach(t, comp, ("path", s, between, bars))
                    continue
                b1, b2 = self._bar(s, dx, dy)
                groups.setdefault(LEAP_MC + mode, []).extend((t, m, b1, b2) for m in encoded(t, double))
                add_reach(t, comp, ("leap", s, b1, b2))
                if pt.pawn and comp.capture and not comp.move and dx in (1, -1) and dy == fwd:
                    victim = geo.offset(s, dx, 0)
                    ep_entries.append((t, s | t << TO_SHIFT | EP, victim, b1, b2))
                    ep_raw[t].append((s, code, victim, b1, b2))
        if ep_entries:
            groups[EP_CAPTURE] = ep_entries
        return tuple((kind, tuple(groups[kind])) for kind in sorted(groups))

    def _freeze(self, t: int, entries: dict) -> tuple:
        """Reverse entries of one target: (leaps, paths, rays); rays run outward from `t`, each
        step with its barrier and the codes that reach `t` from that distance."""
        leaps, paths, rays = [], [], {}
        for key, codes in entries.items():
            if key[0] == "leap":
                leaps.append((key[1], frozenset(codes), key[2], key[3]))
            elif key[0] == "path":
                paths.append((key[1], frozenset(codes), key[2], key[3]))
            else:
                rays.setdefault((key[1], key[2]), {})[key[3]] = frozenset(codes)
        ray_t = []
        for (dx, dy), by_dist in sorted(rays.items()):
            ray, prev = [], t
            for k in range(1, max(by_dist) + 1):
                a = self.geometry.offset(t, -dx * k, -dy * k)
                b1, b2 = self._bar(prev, -dx, -dy)
                ray.append((a, by_dist.get(k, frozenset()), b1, b2))
                prev = a
            ray_t.append(tuple(ray))
        return tuple(sorted(leaps)), tuple(paths), tuple(ray_t)

    def _build_castling(self) -> None:
        """Per side: (bit, king from, to, rook from, to, cells that must be empty, cells the King
        passes or lands on, barriers of every step of King and Rook, move) (3.5, R10)."""
        geo = self.geometry
        self.castle_letters: list[str] = []
        self.castles: list[list[tuple]] = [[], []]
        self.castle_entries: list[tuple] = []
        self.castle_keep = [-1] * (self.size + 1)

        def mirror(cell: int, side: int) -> int:
            x, y = geo.coords[cell]
            return cell if side == 0 else geo.cell(SQUARES, x, geo.ranks - 1 - y)

        for side in (0, 1):
            for c in self.variant.castling:
                kf, kt, rf, rt = (mirror(x, side) for x in (*c.king, *c.rook))
                files = range(min(kf, kt, rf, rt), max(kf, kt, rf, rt) + 1)
                empty = tuple(x for x in files if x not in (kf, rf))
                kstep = 1 if kt > kf else -1
                passing = tuple(range(kf + kstep, kt + kstep, kstep))
                bars = tuple(self._bar(x, step, 0) for start, end in ((kf, kt), (rf, rt))
                             for step in (1 if end > start else -1,) for x in range(start, end, step))
                bit = 1 << len(self.castle_entries)
                m = kf | kt << TO_SHIFT | CASTLE | len(self.castle_entries) << PROMO_SHIFT
                entry = (bit, kf, kt, rf, rt, empty, passing, bars, m)
                self.castles[side].append(entry)
                self.castle_entries.append(entry)
                self.castle_letters.append(c.right.upper() if side == 0 else c.right.lower())
                self.castle_keep[kf] &= ~bit
                self.castle_keep[rf] &= ~bit

    def _build_zobrist(self) -> None:
        rng = random.Random(f"zobrist:{self.variant.name}")
        n = self.size + 1
        self.z_piece = [[0] * n] + [[rng.getrandbits(64) for _ in range(n)] for _ in range(1, MAX_CODE)]
        bits = [rng.getrandbits(64) for _ in self.castle_entries]
        self.z_castle = [0] * (1 << len(bits))
        for mask in range(1 << len(bits)):
            for i, b in enumerate(bits):
                if mask >> i & 1:
                    self.z_castle[mask] ^= b
        self.z_ep = [rng.getrandbits(64) for _ in range(n)]
        self.z_side = rng.getrandbits(64)
        # the turn's phase: 0 at its start, 1 after the first move, 2 after the second
        self.z_phase = [0, rng.getrandbits(64), rng.getrandbits(64)]


@lru_cache(maxsize=8)
def intergrid_tables(name: str) -> IntergridTables:
    """The shared compiled tables of a registered two-lattice variant."""
    return IntergridTables(get_intergrid_variant(name))
