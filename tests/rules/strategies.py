"""Hypothesis strategies for the rules tests: reprogrammed rosters and random super16 positions that
reach the Fortress rule, lame pieces, castling and en passant far more often than play from the start.
The positions are built and checked (the side not to move is not in check) with the super16 oracle."""
from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from superchess.rules import Program, Roster
from tests.oracles.super16 import CASTLING, KING8, NPos, in_check

SUPER16_LETTERS = "KQIRSBNAUFP"

component = st.one_of(st.integers(-3, 3), st.integers(-15, 15))
vectors = st.lists(st.tuples(component, component).filter(lambda v: v != (0, 0)),
                   min_size=1, max_size=8, unique=True)
programs = st.builds(lambda mode, vs: Program(mode, tuple(vs)),
                     st.sampled_from(["jump", "step", "slide"]), vectors)
rosters = st.dictionaries(st.sampled_from(SUPER16_LETTERS), programs, min_size=0, max_size=3).map(Roster)
some_rosters = st.dictionaries(st.sampled_from(SUPER16_LETTERS), programs, min_size=1, max_size=3).map(Roster)
roster_pairs = st.one_of(st.tuples(some_rosters, rosters), st.tuples(rosters, some_rosters))


def naive_rosters(rs):
    """Rosters as the super16 oracle reads them: {letter: (mode, vectors)} per side."""
    return tuple({k: (p.mode, tuple(p.vectors)) for k, p in r.items()} for r in rs)


@st.composite
def super16_positions(draw, with_rosters: bool):
    """A random super16 position (FEN, rosters) that the Board constructor must accept."""
    rs = draw(roster_pairs) if with_rosters else (Roster(), Roster())
    turn = draw(st.integers(0, 1))
    opp = 1 - turn
    cells: dict = {}
    reserved: set = set()   # squares that must stay empty (en passant set-up)
    # 1. en passant set-up: the side not to move has just advanced a pawn two squares
    if draw(st.booleans()):
        fwd = 1 if opp == 0 else -1
        f = draw(st.integers(0, 15))
        r = draw(st.integers(2, 13))  # arrival rank: origin on the board, not a promotion rank
        arrival, skipped, origin = (f, r), (f, r - fwd), (f, r - 2 * fwd)
        cells[arrival] = ("P", opp)
        reserved |= {skipped, origin}
        for dx in (1, -1):
            if 0 <= f + dx < 16 and draw(st.booleans()):
                cells[(f + dx, r)] = ("P", turn)
        if draw(st.booleans()):   # a Fortress garrisoning the double-stepped pawn
            nb = draw(st.sampled_from(KING8))
            sq = (f + nb[0], r + nb[1])
            if 0 <= sq[0] < 16 and 0 <= sq[1] < 16 and sq not in reserved:
                cells.setdefault(sq, ("F", opp))
        ep = skipped
    else:
        ep = None
    # 2. castling set-ups
    for side in (0, 1):
        if draw(st.integers(0, 2)) == 0:
            rank = 0 if side == 0 else 15
            for sq, letter in (((8, rank), "K"), ((0, rank), "R"), ((15, rank), "R")):
                if sq not in reserved:
                    cells.setdefault(sq, (letter, side))
    # 3. Kings
    for side in (0, 1):
        if ("K", side) not in cells.values():
            sq = draw(st.tuples(st.integers(0, 15), st.integers(0, 15)))
            assume(sq not in cells and sq not in reserved)
            cells[sq] = ("K", side)
    # 4. other pieces, mostly in one cluster so that they interact
    w = draw(st.sampled_from([4, 5, 6, 8, 16]))
    x0, y0 = draw(st.integers(0, 16 - w)), draw(st.integers(0, 16 - w))
    anywhere = st.tuples(st.integers(0, 15), st.integers(0, 15))
    cluster = st.tuples(st.integers(x0, x0 + w - 1), st.integers(y0, y0 + w - 1))
    extra = draw(st.lists(st.tuples(st.one_of(cluster, cluster, cluster, anywhere),
                                    st.sampled_from("QIRSBNAUFPFFFPPAS"), st.integers(0, 1)),
                          min_size=10, max_size=40))
    placed = []
    for sq, letter, side in extra:
        if sq in cells or sq in reserved or (letter == "P" and sq[1] == (15 if side == 0 else 0)):
            continue
        cells[sq] = (letter, side)
        placed.append(sq)
    # 5. the side not to move must not be in check: drop the last placed pieces until it is not
    nr = naive_rosters(rs)
    pos = NPos("super16", cells, turn, "", ep, 0, 1, nr)
    while in_check(pos, opp) and placed:
        del cells[placed.pop()]
    assume(not in_check(pos, opp))
    # 6. castling rights: any subset of the consistent ones
    rights = ""
    for ch in "KQkq":
        side = 0 if ch.isupper() else 1
        kf, _, rf, _ = CASTLING["super16"][ch.upper()]
        if side == 1:
            kf, rf = (kf[0], 15), (rf[0], 15)
        if cells.get(kf) == ("K", side) and cells.get(rf) == ("R", side) and draw(st.integers(0, 3)):
            rights += ch
    pos.castling = rights
    pos.halfmove = draw(st.integers(0, 20))
    pos.fullmove = draw(st.integers(1, 60))
    return pos.fen(), rs
