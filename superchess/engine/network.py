"""The learned evaluation network of orthodox chess: data (`nets/chess.net`, trained by
`bench/net_train.py` on Stockfish-scored positions) whose output the native search adds to its
evaluation as a correction, for the standard rosters only.

Shape: 768 inputs per point of view (a piece's side relative to the view, its kind among
P N B R Q K, its square; Black's view mirrors the ranks, and a view whose own King stands on files
e-h mirrors the files, so that the King is always on files a-d: the same weights learn both
wings), one layer of `HIDDEN` units shared by both views and clipped to [0, 1], then both views
(the side to move's first) into one output, the correction in units of `SCALE` centipawns. The
file holds the weights quantized: the first layer times `QA` (16-bit, so the native search sums
it move by move), the output times `QB`.

File format (little-endian): the 8-byte magic, then u16 hidden, scale, qa, qb; the first layer's
weights by input then unit (i16), its biases (i16), the output weights (i16, the side to move's
units first), the output bias (i32, times QA * QB).
"""
from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from ..rules.core.encoding import MAX_CODE, side_of, type_of
from ..rules.core.variant import Variant

NETS_DIR = Path(__file__).parent / "nets"
MAGIC = b"SCNET2\n\0"
HIDDEN = 128
INPUTS = 768
SCALE = 174  # 400 / ln(10): a score s centipawns means an expectation of 1 / (1 + 10^(-s/400))
QA = 255
QB = 64
#: the first layer's weights and biases are kept within this, so that 32 pieces and a bias sum
#: within 16 bits times QA
W1_LIMIT = 1.98
KINDS = "PNBRQK"
#: the variants a network is made for: 8x8 boards with the pieces of KINDS
VARIANTS = ("chess",)


def feature(view: int, side: int, kind: int, square: int, mirror: bool) -> int:
    """The input of a piece (side 0 White, kind in KINDS order, square a1 = 0 .. h8 = 63) from a
    side's point of view, the files mirrored when that side's King is on files e-h."""
    own = 0 if side == view else 1
    return own * 384 + kind * 64 + (square ^ (56 if view else 0) ^ (7 if mirror else 0))


def mirrored(king_square: int | None) -> bool:
    """Whether a view whose own King stands on this square (None: no King) mirrors the files."""
    return king_square is not None and king_square % 8 >= 4


def views(pieces: Iterable[tuple[int, int, int]]) -> tuple[list[int], list[int]]:
    """The active inputs from White's and from Black's view of pieces given as (side, kind,
    square)."""
    pieces = list(pieces)
    king = KINDS.index("K")
    kings = {side: square for side, kind, square in pieces if kind == king}
    white_mirror, black_mirror = mirrored(kings.get(0)), mirrored(kings.get(1))
    return ([feature(0, side, kind, square, white_mirror) for side, kind, square in pieces],
            [feature(1, side, kind, square, black_mirror) for side, kind, square in pieces])


@dataclass(frozen=True)
class Network:
    w1: array  # INPUTS * HIDDEN, by input then unit
    b1: array  # HIDDEN
    w2: array  # 2 * HIDDEN, the side to move's units first
    b2: int

    def evaluate(self, white: Sequence[int], black: Sequence[int], side: int) -> int:
        """The correction in centipawns for `side` (0 White) from the active inputs of White's
        and Black's views: the reference the native search must match exactly."""
        views = (white, black)
        total = self.b2
        for half, view in enumerate((side, 1 - side)):
            acc = list(self.b1)
            for f in views[view]:
                row = f * HIDDEN
                for i in range(HIDDEN):
                    acc[i] += self.w1[row + i]
            w = self.w2[half * HIDDEN:(half + 1) * HIDDEN]
            total += sum(min(max(a, 0), QA) * wi for a, wi in zip(acc, w))
        return total * SCALE // (QA * QB)


def encode(w1, b1, w2, b2: float) -> bytes:
    """The file of float weights (nested sequences or arrays of the shapes above), quantized."""
    def q(values, scale: float) -> array:
        return array("h", [max(-32767, min(32767, round(float(x) * scale))) for x in values])
    flat_w1 = [x for row in w1 for x in row]
    parts = [MAGIC, struct.pack("<4H", HIDDEN, SCALE, QA, QB), q(flat_w1, QA).tobytes(), q(b1, QA).tobytes(),
             q(w2, QB).tobytes(), struct.pack("<i", round(b2 * QA * QB))]
    return b"".join(parts)


def decode(data: bytes, source: str) -> Network:
    """A network from its file's bytes; ValueError naming `source` when malformed."""
    head = len(MAGIC) + 8
    if data[:len(MAGIC)] != MAGIC:
        raise ValueError(f"{source}: not a network file")
    shape = struct.unpack_from("<4H", data, len(MAGIC))
    if shape != (HIDDEN, SCALE, QA, QB):
        raise ValueError(f"{source}: shape {shape}, expected {(HIDDEN, SCALE, QA, QB)}")
    sizes = (INPUTS * HIDDEN, HIDDEN, 2 * HIDDEN)
    if len(data) != head + 2 * sum(sizes) + 4:
        raise ValueError(f"{source}: {len(data)} bytes, expected {head + 2 * sum(sizes) + 4}")
    parts, at = [], head
    for size in sizes:
        a = array("h")
        a.frombytes(data[at:at + 2 * size])
        if sys.byteorder == "big":
            a.byteswap()
        parts.append(a)
        at += 2 * size
    (b2,) = struct.unpack_from("<i", data, at)
    return Network(parts[0], parts[1], parts[2], b2)


_loaded: dict[str, Network | None] = {}


def load(variant: Variant) -> Network | None:
    """The variant's network, None when it has none."""
    if variant.name not in _loaded:
        path = NETS_DIR / f"{variant.name}.net"
        _loaded[variant.name] = (decode(path.read_bytes(), str(path))
                                 if variant.name in VARIANTS and path.exists() else None)
    return _loaded[variant.name]


def inputs(variant: Variant) -> tuple[list[int], list[int]]:
    """What the native search needs to keep the inputs: per view, then unmirrored and mirrored,
    per code * size + cell, the piece's input (-1: none), all in one list; and per cell, whether
    a view whose King stands there mirrors (1) or not (0)."""
    geo = variant.geometry
    n = geo.size
    table = [-1] * (4 * MAX_CODE * n)
    for code in range(MAX_CODE):
        t = type_of(code)
        if not 0 < t <= len(variant.pieces):
            continue
        kind = KINDS.index(variant.pieces[t - 1].letter)
        for cell in range(n):
            f, r = geo.coords[cell]
            for view in (0, 1):
                for mirror in (0, 1):
                    at = (2 * view + mirror) * MAX_CODE * n + code * n + cell
                    table[at] = feature(view, side_of(code), kind, r * 8 + f, bool(mirror))
    return table, [int(mirrored(r * 8 + f)) for f, r in (geo.coords[cell] for cell in range(n))]
