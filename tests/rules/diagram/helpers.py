"""Shared data and helpers of the diagram family's tests (Vanguard and pasted Interactive Diagrams):
diagram lines, the Vanguard seed, Vanguard positions, and the move sets of vanguard.md 3.2."""
from __future__ import annotations

from pathlib import Path

import pytest

from superchess.rules.diagram.line import diagram_line
from superchess.rules.diagram.xbetza import square, square_name
from tests.rules.helpers import placement

# ------------------------------------------------------------------ diagram lines

SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "002_2ad9606e81dee206.txt"


def seed_line() -> str:
    """The Vanguard seed's diagram line (the test is skipped where the seed is not available)."""
    if not SEED.exists():
        pytest.skip("seed file not available")
    return diagram_line(SEED.read_text())


# orthodox chess without castling or en passant, promotion to a Queen only
ORTHODOX = ("files=8 ranks=8 promoZone=1 promoChoice=Q pawn:P:fmWfcFifmnD:pawn:a2,b2,c2,d2,e2,f2,g2,h2 "
            "morph=Q knight:N:N:knight:b1,g1 bishop:B:B:bishop:c1,f1 rook:R:R:rook:a1,h1 queen:Q:Q:queen:d1 "
            "king:K:K:king:e1 royal=6")
TINY = "files=5 ranks=5 pawn:P:fmWfcF:pawn:a2,b2,c2,d2,e2 morph=R rook:R:R:rook:a1,e1 king:K:K:king:c1 royal=3"
# orthodox chess without castling or en passant, promotion by choice (promoChoice)
PIECES = ("knight:N:N:knight:b1,g1 bishop:B:B:bishop:c1,f1 rook:R:R:rook:a1,h1 queen:Q:Q:queen:d1 "
          "king:K:K:king:e1 royal=6")
ORTHODOX_BY_CHOICE = "files=8 ranks=8 promoChoice=QRBN pawn:P:fmWfcFifmnD:pawn:a2-h2 " + PIECES

# ------------------------------------------------------------------ Vanguard positions


def fen_of(pieces: dict[str, str], side: str = "w", unmoved: str = "-", halfmove: int = 0) -> str:
    """The Vanguard position text of {"b2": "E", ...} (upper case = White)."""
    grid = [[""] * 16 for _ in range(16)]
    for square, letter in pieces.items():
        grid[int(square[1:]) - 1][ord(square[0]) - 97] = letter
    return f"{placement(grid)} {side} {unmoved} {halfmove} 1"


DOUBLE_MATE = {"a16": "k", "c16": "i", "d13": "F", "p15": "R", "b1": "R", "c1": "Q", "p14": "R", "p16": "R",
               "p1": "K"}  # F d13 checks a16 (leap); ranks 14-16 and files b, c are covered
# vanguard V6's Berserker (b2, double capture of c3 and d4) with a White Wizard (f1) beside a friend
# (e2) and a Black Wizard (h15) with a friend on i16 (R7 swaps)
BERSERKER_AND_WIZARDS = {"p1": "K", "p16": "k", "b2": "E", "c3": "n", "d4": "p", "f1": "W", "e2": "P",
                         "h15": "w", "i16": "q"}

# ------------------------------------------------------------------ the Vanguard pieces' moves

SEED_LINE_XB = {
    "P": "fmWfcFifmR4", "Sl": "fsmWfcFifmR4", "Sg": "fFfW3smW", "N": "WNC", "B": "B", "R": "R", "Q": "Q",
    "Pc": "BN", "C": "RN", "F": "FADCG", "Nr": "NN", "Pr": "FN", "K": "K", "W": "FafsFafsafFudFudNudC",
    "Br": "KNADcaKmcabK", "A": "mF3caibN", "Bo": "nNafsafmpafzcabmpafzK", "L": "N2ncDncH",
    "H": "RcamfRidaufmRsb(caf)14R", "Gn": "BnDD", "Sp": "W2N",
}


def images(v):
    dx, dy = v
    return {(a * sa, b * sb) for a, b in ((dx, dy), (dy, dx)) for sa in (1, -1) for sb in (1, -1)}


def cells(origin: str, offsets, side: int = 0, files: int = 16, ranks: int = 16) -> set[str]:
    x, y = square(origin)
    out = set()
    for dx, dy in offsets:
        if side == 1:
            dy = -dy
        if 0 <= x + dx < files and 0 <= y + dy < ranks:
            out.add(square_name((x + dx, y + dy)))
    return out


def ray_offsets(v, k=15):
    return [(v[0] * i, v[1] * i) for i in range(1, k + 1)]


def empty_board_offsets(pid: str, unmoved: bool) -> list:
    """The offsets the Vanguard piece `pid` reaches on an empty board, as vanguard.md 3.2 resolves them."""
    orth = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    diag = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
    knight = list(images((2, 1)))
    camel = list(images((3, 1)))
    slide = lambda vs, k=15: [w for v in vs for w in ray_offsets(v, k)]
    if pid == "P":
        return [(0, 1)] + ([(0, 2), (0, 3), (0, 4)] if unmoved else [])
    if pid == "Sl":
        return [(0, 1), (1, 0), (-1, 0)] + ([(0, 2), (0, 3), (0, 4)] if unmoved else [])
    table = {
        "Sg": [(1, 1), (-1, 1), (0, 1), (0, 2), (0, 3), (1, 0), (-1, 0)],
        "N": orth + knight + camel, "B": slide(diag), "R": slide(orth), "Q": slide(orth + diag),
        "Pc": slide(diag) + knight, "C": slide(orth) + knight,
        "F": [(dx, dy) for dx in range(-3, 4) for dy in range(-3, 4) if (dx + dy) % 2 == 0 and (dx, dy) != (0, 0)],
        "Nr": slide(knight), "Pr": diag + knight, "K": orth + diag, "W": diag + knight + camel,
        "Br": [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3)],  # (0,0) = pass
        "A": slide(diag, 3), "Bo": knight, "L": knight + [(2 * a, 2 * b) for a, b in knight],
        "H": slide(orth), "Gn": slide(diag) + [w for v in orth for w in ray_offsets((2 * v[0], 2 * v[1]), 7)],
        "Sp": orth + [(2 * a, 2 * b) for a, b in orth] + knight,
    }
    return table[pid]
