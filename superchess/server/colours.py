"""Piece colours: how they are written, the default pair, and when two are too close to tell the
armies apart (CIE76 colour difference in L*a*b*, sRGB with a D65 white)."""
from __future__ import annotations

import re

COLOUR_RE = re.compile(r"#[0-9a-fA-F]{6}\Z")
DEFAULT_COLOURS = ("#d03030", "#3060d0")  # Player 1 red, Player 2 blue (the pages' defaults too)
MIN_DIFFERENCE = 25.0  # ΔE*ab below which two armies look alike on the board


def _lab(colour: str) -> tuple[float, float, float]:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = (f(t) for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def difference(a: str, b: str) -> float:
    """ΔE*ab between two #rrggbb colours (0: the same; about 2.3: just noticeable)."""
    return sum((x - y) ** 2 for x, y in zip(_lab(a), _lab(b))) ** 0.5


def too_close(a: str, b: str) -> bool:
    return difference(a, b) < MIN_DIFFERENCE
