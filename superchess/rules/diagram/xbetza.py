"""XBetza interpreter: parse a piece's XBetza string once, expand it into move patterns, and turn
patterns plus a board occupancy into concrete moves.

Pure module: no Position, no tables. The later wiring compiles `patterns(...)` per piece and side
into per-cell tables; nothing here is re-parsed per call (`patterns` is cached).

Coordinates
    A cell is a 0-based ``(file, rank)`` tuple; ``square('e4') == (4, 3)``. Offsets are
    ``(dx, dy)``. Patterns are returned in board coordinates for the given side: for Black
    (side 1) every vector of the White pattern has its dy negated, so "forward" is toward rank 1
    and left/right turns mirror consistently.

Grammar (what `parse` accepts)
    string  = term+ ;  term = modifiers atom [atom-again] [digits]
    atoms   W F D N A H C Z G (one leap, all symmetric images); K = W+F, R = WW, B = FF, Q = KK.
            A doubled atom (NN, DD, WW) is an unlimited rider; digits after the atom bound the
            number of steps (R4, F3, W2, N2; a bound on a leaper makes it a rider of that range).
    modifiers, split into legs at ``a`` (the atom, and its range, applies to every leg):
        m c d p    leg end: empty / enemy (captured) / friend (captured) / occupied (hopped).
                   Combine as a union (``mc``, ``mp`` = anything). Defaults: ``m`` for a non-final
                   leg, ``mc`` for the final leg. ``p`` on a final *slider* leg is a cannon hop
                   (``pR`` = ``pafR``, the remaining m/c/d apply to the landing).
        u          unload: after the leg, the piece captured most recently in this move is put on
                   the square where the leg started (``udF`` = swap with a friend; Helepolis
                   ``ida ufmR`` = hop over a friend, which stays).
        i          first leg: the move is for an unmoved piece only (the caller decides what
                   "unmoved" means: R11). On a later leg ``i`` has no effect (3.2 item 16).
        n          lame: every square a leap passes must be empty. Straight leaps (D, H, A, G)
                   have one path; oblique leaps (N, C, Z) have two, orthogonal steps first or
                   diagonal steps first, and are blocked only if both are (R9). For a rider (nDD)
                   every single leap of the ride is lame.
        f b l r s v  first leg: absolute directions (forward = toward the far rank). Single
                   letters are half-planes (f: dy>0, b: dy<0, l: dx<0, r: dx>0, s = l+r,
                   v = f+b) and several letters are a union (``fsmW`` = forward and sideways).
                   For diagonal atoms a vertical+horizontal pair is one quadrant (``fl``); for
                   oblique atoms ``ff``/``fs``/``ll``/``fl`` etc. are the usual narrow/wide/
                   quadrant pairs.
        f b l r s v z q  later legs: relative to the previous leg's direction, in steps of 45
                   degrees: f straight on, b reverse, l/r 90 degrees left/right, s = l+r, v = f+b,
                   fs (fl, fr) 45 degrees, bs (bl, br) 135 degrees, z (= fz) 45 degrees to the side
                   opposite to the previous bend, q (= fq) 45 degrees to the same side; sz/sq and
                   bz/bq likewise at 90/135 degrees. A 45-degree turn of an orthogonal leg makes it
                   diagonal with the same multiplier (W->F, D->A, R->B). No direction = every
                   direction of the atom (all 8 for K and Q, the 4 of its own kind for W, F, R,
                   B..., all 8 images for oblique atoms). Oblique atoms accept only multiples of
                   90 degrees.
        (...)N     the bracketed modifier text is repeated 0..N times (``sb(caf)14R``: 0..14
                   run-over captures followed by the final leg).

Concrete moves (`generate`)
    A walk over a pattern keeps an overlay of the board: the origin is empty once the mover has
    left, captured pieces vanish, unloaded pieces appear. Every step of a slide except its last
    must be empty. Result: ``Move(dest, captured, kind)`` with the captured cells in path order
    (the destination included when it is captured) and kind one of
        normal  one displacement, at most the destination captured;
        locust  some captured cell is not the destination (Berserker double capture, Bowman
                advance capture, Helepolis run);
        igui    ends on the origin having captured only adjacent pieces;
        rifle   ends on the origin having captured some non-adjacent piece;
        pass    ends on the origin without capturing;
        swap    a friend was captured and unloaded on the origin (dest = the friend's square);
        jump    a friend was captured and unloaded where it stood (Helepolis initial jump).
    Duplicates (several paths to the same result) are one move.
    The walk itself runs on integer cells (``y * files + x``): `pattern_trie` merges patterns on
    their common legs, `cell_entries` makes a trie concrete from one origin cell (the core's
    diagram tables keep these per piece code and cell), `walk_cells` walks it over a board of
    piece codes; `generate` is these three over an occupancy callback.

What XBetza alone does not say (named hooks, next session)
    * ``i`` (initial): the caller passes ``unmoved``. Pawn/Soldier: "on its side's third rank"
      (R11). Helepolis: the recorded unmoved right (R11); promoted Helepoleis have none.
    * Helepolis ``idaufmR``: XBetza names no direction, so the patterns hold the jump in all
      four directions; R5 keeps only the forward one. The hook filters patterns of that term
      (``MovePattern.term == 'idaufmR'``) whose first leg is not forward
      (`MovePattern.forward_first`).
    * Move-kind names of the rules file: Helepolis ``locust`` moves are "run", its ``jump`` is
      "jump"; Bowman ``locust`` moves are "advance"; Archer stay-captures are "rifle" and
      Berserker ones "igui" (the generic kinds already coincide for these two).
    * Everything else of Helepolis (R6: one forward capture, unlimited sideways/backward
      captures) and Bowman (R9 multi-path lame knight, advance capture of 2T with the square
      between ignored) *is* expressed by the XBetza as parsed here; the tests check this
      against V3, V4 and V5.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntFlag
from functools import lru_cache
from typing import NamedTuple

Vector = tuple[int, int]
Cell = tuple[int, int]
INF = 1 << 10  # "unlimited" number of steps; walks stop at the board edge

FRIEND_S, ENEMY_S = "friend", "enemy"


class Req(IntFlag):
    """What a leg's end cell may hold."""
    NONE = 0
    EMPTY = 1
    ENEMY = 2
    FRIEND = 4
    OCCUPIED = 6
    ANY = 7


# ---------------------------------------------------------------------------------- parsing

_ATOMS: dict[str, tuple[tuple[Vector, ...], bool]] = {
    # letter: (base vectors, rider)
    "W": (((1, 0),), False), "F": (((1, 1),), False), "D": (((2, 0),), False),
    "N": (((2, 1),), False), "A": (((2, 2),), False), "H": (((3, 0),), False),
    "C": (((3, 1),), False), "Z": (((3, 2),), False), "G": (((3, 3),), False),
    "K": (((1, 0), (1, 1)), False),
    "R": (((1, 0),), True), "B": (((1, 1),), True), "Q": (((1, 0), (1, 1)), True),
}
_MODES = set("mcdp")
_FLAGS = set("inu")
_DIRS = set("fblrsvzq")
_UNSUPPORTED = set("gjyotxkeh")


@dataclass(frozen=True)
class LegSpec:
    """One leg as written: mode letters ('' = default), direction letters, flags."""
    modes: str = ""
    dirs: str = ""
    initial: bool = False
    lame: bool = False
    unload: bool = False


@dataclass(frozen=True)
class Term:
    """One term (modifiers + atom [+ range]) of an XBetza string."""
    text: str
    atom: str
    vectors: tuple[Vector, ...]  # base vectors (one per symmetry class)
    max_steps: int               # 1 = leaper; n = ranged slide; INF = rider
    alternatives: tuple[tuple[LegSpec, ...], ...]  # leg sequences ((..)N gives several)


@dataclass(frozen=True)
class XBetza:
    text: str
    terms: tuple[Term, ...]


class XBetzaError(ValueError):
    pass


def _parse_leg(text: str, term: str) -> LegSpec:
    modes, dirs = [], []
    flags = {"i": False, "n": False, "u": False}
    for ch in text:
        if ch in _MODES:
            modes.append(ch)
        elif ch in _FLAGS:
            flags[ch] = True
        elif ch in _DIRS:
            dirs.append(ch)
        elif ch in _UNSUPPORTED:
            raise XBetzaError(f"modifier {ch!r} in term {term!r} is not supported")
        else:
            raise XBetzaError(f"unknown modifier {ch!r} in term {term!r}")
    return LegSpec("".join(modes), "".join(dirs), flags["i"], flags["n"], flags["u"])


def _expand_groups(mods: str, term: str) -> list[str]:
    m = re.fullmatch(r"([a-z]*)\(([a-z]+)\)(\d*)([a-z]*)", mods)
    if "(" not in mods and ")" not in mods:
        return [mods]
    if not m:
        raise XBetzaError(f"bad bracket group in term {term!r} (one group '(...)N' supported)")
    pre, body, count, post = m.groups()
    if not count:
        raise XBetzaError(f"bracket group in term {term!r} needs a repeat count, e.g. (caf)14")
    return [pre + body * k + post for k in range(int(count) + 1)]


@lru_cache(maxsize=1024)
def parse(text: str) -> XBetza:
    """Parse an XBetza string; XBetzaError (a ValueError) names the offending part."""
    if not isinstance(text, str) or not text.strip():
        raise XBetzaError("empty XBetza string")
    s = text.strip()
    terms: list[Term] = []
    i, n = 0, len(s)
    while i < n:
        start = i
        while i < n and (s[i].islower() or s[i] in "()" or (s[i].isdigit() and i > start and
                                                            _after_group(s, start, i))):
            i += 1
        if i >= n:
            raise XBetzaError(f"term {s[start:]!r} at position {start} has no atom (upper-case letter)")
        atom = s[i]
        if atom not in _ATOMS:
            raise XBetzaError(f"unknown atom {atom!r} at position {i} of {s!r}")
        i += 1
        base, rider = _ATOMS[atom]
        steps = INF if rider else 1
        if i < n and s[i] == atom:  # doubled atom: unlimited rider
            if rider:
                raise XBetzaError(f"atom {atom!r} is already a rider; {atom * 2!r} at position {i - 1}")
            steps = INF
            i += 1
        j = i
        while i < n and s[i].isdigit():
            i += 1
        if i > j:
            rng = int(s[j:i])
            if rng < 1:
                raise XBetzaError(f"range {s[j:i]!r} after {atom!r} must be at least 1")
            steps = rng
        ttext = s[start:i]
        mods = s[start:s.index(atom, start)]
        alts = []
        for variant in _expand_groups(mods, ttext):
            alts.append(tuple(_parse_leg(part, ttext) for part in variant.split("a")))
        terms.append(Term(ttext, atom, base, steps, tuple(alts)))
    return XBetza(s, tuple(terms))


def _after_group(s: str, start: int, i: int) -> bool:
    """True when the digit at i continues a ')' repeat count inside the modifiers."""
    k = i - 1
    while k >= start and s[k].isdigit():
        k -= 1
    return k >= start and s[k] == ")"


# ---------------------------------------------------------------------------------- patterns

_DIR8: tuple[Vector, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
# index grows counter-clockwise: +1 = 45 degrees to the left (White's view)


@dataclass(frozen=True)
class LegPattern:
    """One leg in board coordinates.

    step       displacement of one leap; the leg makes 1..max_steps of them along a straight line.
    max_steps  1 for a leap, n for a ranged slide, INF for a rider (clipped by the board).
    lame       alternative paths (offsets from the start of each single leap) of which at least
               one must be entirely empty; () = the leap jumps.
    end        Req on the leg's end cell; the cells of a slide before its end must be EMPTY.
    takes      which occupants of the end cell are captured (Req.ENEMY for c, Req.FRIEND for d).
    unload     after the leg, the last captured piece is placed on the leg's start cell.
    """
    step: Vector
    max_steps: int
    lame: tuple[tuple[Vector, ...], ...]
    end: Req
    takes: Req
    unload: bool

    def cells_from(self, start: Cell, files: int, ranks: int) -> tuple[Cell, ...]:
        """The cells this leg may end on from `start`, nearest first (for per-cell tables)."""
        out = []
        x, y = start
        for k in range(1, self.max_steps + 1):
            x, y = x + self.step[0], y + self.step[1]
            if not (0 <= x < files and 0 <= y < ranks):
                break
            out.append((x, y))
        return tuple(out)


@dataclass(frozen=True)
class MovePattern:
    """One way of moving: a fixed sequence of legs with fixed directions.

    term            the XBetza term it comes from (e.g. 'idaufmR'), for hooks.
    initial         only for an unmoved piece.
    forward_first   the first leg points forward for its side (dy > 0 White, dy < 0 Black).
    """
    legs: tuple[LegPattern, ...]
    term: str
    initial: bool
    forward_first: bool


def _kind_of(v: Vector) -> str:
    dx, dy = v
    if dx == 0 or dy == 0:
        return "orth"
    if abs(dx) == abs(dy):
        return "diag"
    return "obl"


def _images(v: Vector) -> list[Vector]:
    dx, dy = v
    out = []
    for a, b in ((dx, dy), (dy, dx)):
        for sa in (1, -1):
            for sb in (1, -1):
                w = (a * sa, b * sb)
                if w not in out:
                    out.append(w)
    return out


_HALF = {
    "f": lambda dx, dy: dy > 0, "b": lambda dx, dy: dy < 0,
    "l": lambda dx, dy: dx < 0, "r": lambda dx, dy: dx > 0,
    "s": lambda dx, dy: dx != 0, "v": lambda dx, dy: dy != 0,
}


def _pair(a: str, b: str, kind: str):
    """Predicate of a two-letter absolute direction for diagonal/oblique atoms, or None."""
    vert, horiz = "fb", "lrs"
    if kind == "diag":
        if a in vert and b in horiz or a in horiz and b in vert:
            p, q = _HALF[a], _HALF[b]
            return lambda dx, dy: p(dx, dy) and q(dx, dy)
        return None
    if kind == "obl":
        narrow_v = lambda dx, dy: abs(dy) > abs(dx)
        wide = lambda dx, dy: abs(dx) > abs(dy)
        table = {
            "ff": (_HALF["f"], narrow_v), "bb": (_HALF["b"], narrow_v),
            "ll": (_HALF["l"], wide), "rr": (_HALF["r"], wide),
            "fs": (_HALF["f"], wide), "bs": (_HALF["b"], wide),
            "fl": (_HALF["f"], _HALF["l"]), "fr": (_HALF["f"], _HALF["r"]),
            "bl": (_HALF["b"], _HALF["l"]), "br": (_HALF["b"], _HALF["r"]),
            "lf": (_HALF["f"], _HALF["l"]), "rf": (_HALF["f"], _HALF["r"]),
            "lb": (_HALF["b"], _HALF["l"]), "rb": (_HALF["b"], _HALF["r"]),
            "ss": (wide, wide), "vv": (narrow_v, narrow_v),
        }
        if a + b in table:
            p, q = table[a + b]
            return lambda dx, dy: p(dx, dy) and q(dx, dy)
    return None


def _absolute_ok(v: Vector, dirs: str, term: str) -> bool:
    if not dirs:
        return True
    if "z" in dirs or "q" in dirs:
        raise XBetzaError(f"'z'/'q' need a previous leg (term {term!r})")
    kind = _kind_of(v)
    preds = []
    i = 0
    while i < len(dirs):
        if i + 1 < len(dirs):
            p = _pair(dirs[i], dirs[i + 1], kind)
            if p is not None:
                preds.append(p)
                i += 2
                continue
        preds.append(_HALF[dirs[i]])
        i += 1
    return any(p(*v) for p in preds)


_REL_SINGLE = {"f": (0,), "b": (4,), "l": (2,), "r": (-2,), "s": (2, -2), "v": (0, 4)}
_REL_PAIR = {"fs": (1, -1), "fl": (1,), "fr": (-1,), "bs": (3, -3), "bl": (3,), "br": (-3,)}
_CHIRAL = {"z": -1, "q": 1}
_CHIRAL_ANGLE = {"f": 1, "s": 2, "b": 3}


def _relative_turns(dirs: str, last_bend: int, term: str) -> set[int]:
    turns: set[int] = set()
    i = 0
    while i < len(dirs):
        two = dirs[i:i + 2]
        if len(two) == 2 and two[1] in _CHIRAL and two[0] in _CHIRAL_ANGLE:
            ang, sign = _CHIRAL_ANGLE[two[0]], _CHIRAL[two[1]]
            i += 2
        elif dirs[i] in _CHIRAL:
            ang, sign = 1, _CHIRAL[dirs[i]]
            i += 1
        elif two in _REL_PAIR:
            turns.update(_REL_PAIR[two])
            i += 2
            continue
        else:
            turns.update(_REL_SINGLE[dirs[i]])
            i += 1
            continue
        if last_bend == 0:  # no previous bend: either side
            turns.update((ang, -ang))
        else:
            turns.add(sign * last_bend * ang)
    return {t % 8 for t in turns}


def _rotations(prev: Vector, spec: LegSpec, k_family_all: bool, last_bend: int,
               term: str) -> list[tuple[Vector, int]]:
    """Candidate vectors of a later leg and the bend (+1 left, -1 right, 0 none) each makes."""
    kind = _kind_of(prev)
    if spec.dirs:
        turns = _relative_turns(spec.dirs, last_bend, term)
    elif kind == "obl" or not k_family_all:
        turns = {0, 2, 4, 6}
    else:
        turns = set(range(8))
    out = []
    if kind == "obl":
        for t in sorted(turns):
            if t % 2:
                raise XBetzaError(f"45-degree turn of an oblique leap in term {term!r}")
            v = prev
            for _ in range(t // 2):
                v = (-v[1], v[0])
            out.append((v, 0 if t in (0, 4) else (1 if t == 2 else -1)))
        return out
    scale = max(abs(prev[0]), abs(prev[1]))
    unit = (prev[0] // scale, prev[1] // scale)
    idx = _DIR8.index(unit)
    for t in sorted(turns):
        u = _DIR8[(idx + t) % 8]
        bend = 0 if t in (0, 4) else (1 if t < 4 else -1)
        out.append(((u[0] * scale, u[1] * scale), bend))
    return out


def _lame_paths(v: Vector) -> tuple[tuple[Vector, ...], ...]:
    dx, dy = v
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    ax, ay = abs(dx), abs(dy)
    if ax == 0 or ay == 0 or ax == ay:
        n = max(ax, ay)
        return (tuple((sx * k, sy * k) for k in range(1, n)),) if n > 1 else ()
    diag = min(ax, ay)
    orth_n = max(ax, ay) - diag
    o = (sx, 0) if ax > ay else (0, sy)
    d = (sx, sy)
    paths = []
    for first, fn, second, sn in ((o, orth_n, d, diag), (d, diag, o, orth_n)):
        cells, x, y = [], 0, 0
        for step, cnt in ((first, fn), (second, sn)):
            for _ in range(cnt):
                x, y = x + step[0], y + step[1]
                cells.append((x, y))
        paths.append(tuple(cells[:-1]))
    return tuple(dict.fromkeys(paths))


_MODE_REQ = {"m": Req.EMPTY, "c": Req.ENEMY, "d": Req.FRIEND, "p": Req.OCCUPIED}


def _leg(v: Vector, steps: int, spec: LegSpec, final: bool, modes: str | None = None) -> LegPattern:
    modes = spec.modes if modes is None else modes
    if not modes:
        modes = "mc" if final else "m"
    end = Req.NONE
    for ch in modes:
        end |= _MODE_REQ[ch]
    takes = (Req.ENEMY if "c" in modes else Req.NONE) | (Req.FRIEND if "d" in modes else Req.NONE)
    return LegPattern(v, steps, _lame_paths(v) if spec.lame else (), end, takes, spec.unload)


def _term_patterns(term: Term) -> list[tuple[tuple[LegPattern, ...], bool]]:
    """White-frame (legs, initial) sequences of one term."""
    k_all = len(term.vectors) > 1  # K and Q: later legs may turn by 45 degrees by default
    firsts = [w for v in term.vectors for w in _images(v)]
    out = []
    for legs in term.alternatives:
        if "p" in legs[-1].modes and term.max_steps == 1:
            raise XBetzaError(f"'p' on the final leg of leaper term {term.text!r} is not supported")
        initial = legs[0].initial
        # depth-first over direction choices: (vectors so far, last bend)
        partial: list[tuple[list[Vector], int]] = [([v], 0) for v in firsts
                                                   if _absolute_ok(v, legs[0].dirs, term.text)]
        for spec in legs[1:]:
            nxt = []
            for vecs, bend in partial:
                for v, b in _rotations(vecs[-1], spec, k_all, bend, term.text):
                    nxt.append((vecs + [v], b if b else bend))
            partial = nxt
        for vecs, _ in partial:
            pats: list[LegPattern] = []
            for idx, (v, spec) in enumerate(zip(vecs, legs)):
                final = idx == len(legs) - 1
                if final and "p" in spec.modes:
                    # cannon hop: slide to an occupied square, hop it, land beyond
                    rest = spec.modes.replace("p", "")
                    pats.append(_leg(v, term.max_steps, spec, False, "p"))
                    pats.append(LegPattern(v, term.max_steps, (), _leg(v, 1, LegSpec(), True, rest or None).end,
                                           _leg(v, 1, LegSpec(), True, rest or None).takes, False))
                else:
                    pats.append(_leg(v, term.max_steps, spec, final))
            out.append((tuple(pats), initial))
    return out


@lru_cache(maxsize=1024)
def patterns(xbetza: str, side: int = 0) -> tuple[MovePattern, ...]:
    """All move patterns of an XBetza string for side 0 (White) or 1 (Black), board-independent.

    Every pattern has fixed leg directions; slides keep their range. Cached per (string, side)."""
    if side not in (0, 1):
        raise ValueError(f"side must be 0 or 1, not {side!r}")
    parsed = parse(xbetza)
    out: list[MovePattern] = []
    seen = set()
    for term in parsed.terms:
        for legs, initial in _term_patterns(term):
            if side == 1:
                legs = tuple(LegPattern((lg.step[0], -lg.step[1]), lg.max_steps,
                                        tuple(tuple((x, -y) for x, y in path) for path in lg.lame),
                                        lg.end, lg.takes, lg.unload) for lg in legs)
            fwd = legs[0].step[1] * (1 if side == 0 else -1) > 0
            pat = MovePattern(legs, term.text, initial, fwd)
            if pat not in seen:
                seen.add(pat)
                out.append(pat)
    return tuple(out)


# ---------------------------------------------------------------------------------- moves

class Move(NamedTuple):
    dest: Cell
    captured: tuple[Cell, ...]
    kind: str


Occupancy = Callable[[Cell], str | None]


@dataclass(frozen=True, eq=False)
class TrieNode:
    """Patterns merged on their common leading legs, so a walk tries each shared prefix once
    (the Helepolis's ``sb(caf)14R`` is 45 patterns but one chain of capture legs per direction).

    leg           the leg this node walks (None at the root).
    ends          some pattern ends after this leg; ends_initial: one for unmoved pieces only.
    takes         this leg or a later one can capture an enemy (walks for captures skip the rest).
    """
    leg: LegPattern | None
    ends: bool
    ends_initial: bool
    takes: bool
    children: tuple[TrieNode, ...]
    end: int = 0          # the leg's `end` and `takes` as plain ints (the walk's hot tests)
    take: int = 0


@lru_cache(maxsize=4096)
def pattern_trie(pats: tuple[MovePattern, ...]) -> TrieNode:
    """The patterns as a trie of legs (cached per tuple of patterns)."""
    root: dict = {}
    for pat in pats:
        node = {"children": root}
        for leg in pat.legs:
            node = node["children"].setdefault(leg, {"children": {}, "ends": False, "ends_initial": False})
        node["ends_initial" if pat.initial else "ends"] = True

    def freeze(leg, d) -> TrieNode:
        children = tuple(freeze(lg, c) for lg, c in d["children"].items())
        takes = bool(leg.takes & Req.ENEMY) or any(c.takes for c in children)
        return TrieNode(leg, d["ends"], d["ends_initial"], takes, children, int(leg.end), int(leg.takes))

    children = tuple(freeze(lg, c) for lg, c in root.items())
    return TrieNode(None, False, False, any(c.takes for c in children), children)


def generate(pats: tuple[MovePattern, ...], origin: Cell, occupancy: Occupancy, files: int = 16,
             ranks: int = 16, unmoved: bool = False) -> list[Move]:
    """Concrete moves of a piece on `origin` (its own cell is ignored by `occupancy`).

    occupancy(cell) -> None (empty), 'friend' or 'enemy' (relative to the mover)."""
    o = origin[1] * files + origin[0]
    entries = cell_entries(pattern_trie(pats), o, files, ranks, {})
    return [Move((d % files, d // files), tuple((c % files, c // files) for c in caps), kind)
            for d, caps, kind in walk_cells(entries, o, _Cells(occupancy, files), _OWN, files, unmoved)]


_STATE_CODE = {None: 0, FRIEND_S: 1, ENEMY_S: 2}
_OWN = (False, True, False)


class _Cells:
    """A board for `walk_cells` read through an occupancy callback: 0 empty, 1 friend, 2 enemy."""

    def __init__(self, occupancy: Occupancy, files: int) -> None:
        self.occupancy, self.files = occupancy, files

    def __getitem__(self, c: int) -> int:
        cell = (c % self.files, c // self.files)
        st = self.occupancy(cell)
        if st not in _STATE_CODE:
            raise ValueError(f"occupancy returned {st!r} for {cell}; use None, 'friend' or 'enemy'")
        return _STATE_CODE[st]


def cell_entries(trie: TrieNode, origin: int, files: int, ranks: int, memo: dict) -> tuple:
    """The trie's legs made concrete from cell `origin` (cells are ``y * files + x``): per child
    node ``(steps, end, take, unload, ends, ends_initial, takes)``, each step ``(cell, lame paths
    or None, the next legs from that cell)``; shared sub-walks are made once per `memo`."""
    return _entries(trie.children, origin, files, ranks, memo)


def _entries(nodes: tuple[TrieNode, ...], start: int, files: int, ranks: int, memo: dict) -> tuple:
    key = (id(nodes), start)
    hit = memo.get(key)
    if hit is not None:
        return hit[1]
    out = []
    for node in nodes:
        leg = node.leg
        x, y = start % files, start // files
        dx, dy = leg.step
        steps = []
        for _ in range(min(leg.max_steps, files + ranks)):
            px, py = x, y
            x, y = x + dx, y + dy
            if not (0 <= x < files and 0 <= y < ranks):
                break
            lame = None
            if leg.lame:
                lame = tuple(tuple((py + b) * files + px + a for a, b in path) for path in leg.lame
                             if all(0 <= px + a < files and 0 <= py + b < ranks for a, b in path))
                if not lame:
                    break
            cell = y * files + x
            steps.append((cell, lame, _entries(node.children, cell, files, ranks, memo) if node.children else ()))
        if steps:
            out.append((tuple(steps), node.end, node.take, leg.unload, node.ends, node.ends_initial, node.takes))
    result = tuple(out)
    memo[key] = (nodes, result)  # the nodes are kept alive with their entries, so ids stay unique
    return result


_EMPTY, _ENEMY, _FRIEND = int(Req.EMPTY), int(Req.ENEMY), int(Req.FRIEND)


def walk_cells(entries: tuple, origin: int, board, own, files: int, unmoved: bool = False,
               captures_only: bool = False) -> list[tuple[int, tuple[int, ...], str]]:
    """The moves ``(dest, captured cells in path order, kind)`` of a piece on `origin`:
    `board[cell]` is 0 (empty) or a piece code and `own[code]` says whether it is the mover's
    (the origin counts as empty). With `captures_only`, branches that can capture nothing are not
    walked (every capturing move is still found). See `_result` for the kinds."""
    result: dict[tuple, None] = {}
    _walk(entries, origin, origin, board, own, {origin: _EMPTY}, [], [], result, files, unmoved, captures_only)
    return list(result)


def _walk(entries, start, origin, board, own, overlay, captured, unloads, result, files, unmoved, captures_only):
    get = overlay.get
    for steps, end, take, unload, ends, ends_initial, takes in entries:
        if captures_only and not takes and not captured:
            continue
        for cell, lame, children in steps:
            if lame is not None:
                for path in lame:
                    for c in path:
                        st = get(c)
                        if st is None:
                            st = _EMPTY if not board[c] else (_FRIEND if own[board[c]] else _ENEMY)
                        if st != _EMPTY:
                            break
                    else:
                        break  # this path is open
                else:
                    break  # every path is blocked: the leg stops
            here = get(cell)
            if here is None:
                v = board[cell]
                here = _EMPTY if not v else (_FRIEND if own[v] else _ENEMY)
            if here & end:
                taken = here != _EMPTY and here & take
                undo = []
                ok = True
                if taken:
                    undo.append((cell, get(cell)))
                    overlay[cell] = _EMPTY
                    captured.append((cell, here))
                if unload:
                    if not captured:
                        ok = False
                    else:
                        ccell, owner = captured[-1]
                        undo.append((start, get(start)))
                        overlay[start] = owner
                        unloads.append((ccell, start))
                if ok:
                    if ends or (unmoved and ends_initial):
                        result.setdefault(_result(cell, origin, captured, unloads, files), None)
                    if children:
                        _walk(children, cell, origin, board, own, overlay, captured, unloads, result, files,
                              unmoved, captures_only)
                if unload and ok:
                    unloads.pop()
                for c, old in reversed(undo):
                    if old is None:
                        del overlay[c]
                    else:
                        overlay[c] = old
                if taken:
                    captured.pop()
            if here != _EMPTY:
                break


def _result(dest: int, origin: int, captured, unloads, files: int) -> tuple[int, tuple[int, ...], str]:
    unloaded = {c for c, _ in unloads}
    caps = tuple(c for c, _ in captured if c not in unloaded) if unloads else tuple(c for c, _ in captured)
    if any(to == origin for _, to in unloads) and dest != origin:
        return dest, caps, "swap"
    if any(frm == to for frm, to in unloads):
        return dest, caps, "jump"
    if dest == origin:
        if not caps:
            return dest, caps, "pass"
        ox, oy = origin % files, origin // files
        adjacent = all(max(abs(c % files - ox), abs(c // files - oy)) == 1 for c in caps)
        return dest, caps, "igui" if adjacent else "rifle"
    if any(c != dest for c in caps):
        return dest, caps, "locust"
    return dest, caps, "normal"


def moves(xbetza: str, side: int, origin: Cell, occupancy: Occupancy, files: int = 16, ranks: int = 16,
          unmoved: bool = False) -> list[Move]:
    """Convenience: `generate(patterns(xbetza, side), ...)`."""
    return generate(patterns(xbetza, side), origin, occupancy, files, ranks, unmoved)


# ---------------------------------------------------------------------------------- names

def square(name: str) -> Cell:
    """'e4' -> (4, 3)."""
    m = re.fullmatch(r"([a-z])([1-9][0-9]*)", name)
    if not m:
        raise ValueError(f"bad square {name!r}")
    return ord(m.group(1)) - 97, int(m.group(2)) - 1


def square_name(cell: Cell) -> str:
    return chr(97 + cell[0]) + str(cell[1] + 1)


def occupancy_from(pieces: dict[str, str]) -> Occupancy:
    """Occupancy callback from {'e4': 'friend', 'f5': 'enemy', ...}."""
    table = {square(k): v for k, v in pieces.items()}
    return table.get
