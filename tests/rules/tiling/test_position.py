"""Tiling Rider on the core (superchess/rules/tiling/: position over tables and geometry), against
the reference module tests/oracles/tiling.py as the oracle: seeded random games where the core's
legal moves (texts), check and FEN equal the reference's at every step, make/unmake and the Zobrist
hash stay consistent; plus the geometry (tiling T1, R3), the move tables (T2-T5, R5), rulings on the
core position (T6/R6, R4, R8, T9, T10/R10/R11) and the in-place turn search (R12)."""
from __future__ import annotations

import random

import pytest

from superchess.rules.core.turns import TurnSearch
from superchess.rules.tiling.board import SEARCH_BUDGET, TilingModel, search_key, turn_rule
from superchess.rules.tiling.position import TilingError, TilingPosition
from superchess.rules.tiling.tables import tiling_tables
from tests.oracles import tiling as T
from tests.oracles.tiling import position, random_position
from tests.rules.helpers import occupied_by_side


def core(state: T.State) -> TilingPosition:
    return TilingPosition.from_fen(T.fen(state))


def move_texts(pos: TilingPosition) -> list[str]:
    return sorted(pos.move_text(m) for m in pos.legal())


def reference_texts(state: T.State) -> list[str]:
    return sorted(m.text for m in T.moves_in_turn(state))


def test_t1_r3_geometry_is_the_reference_geometry():
    """tiling T1, R3: every cell's tile partner and unit (cells, colour) as the reference defines them."""
    geo = tiling_tables().geometry
    for sq in range(T.SIZE):
        assert geo.partner[sq] == T.partner(sq)
        i, j = T.unit_of(sq)
        unit = geo.unit_of[sq]
        assert geo.unit_cells[unit] == T.unit_squares(i, j)
        assert geo.unit_colour[unit] == T.unit_colour(i, j)
        assert geo.unit_name(unit) == T.unit_name(i, j)


@pytest.mark.parametrize("pieces", [{"i4": "F"}, {"d4": "N"}, {"b4": "W", "c4": "G"},
                                    {"i4": "F", "j6": "f"}, {"i4": "F", "j5": "n"}, {"i4": "F", "j5": "W"}])
def test_t2_t5_small_piece_tables_match_the_reference(pieces):
    """tiling T2-T5, R5: basic targets and elongations from the compiled per-cell tables."""
    state = position(pieces)
    assert move_texts(core(state)) == reference_texts(state)


def test_r1_r2_start_position_round_trips():
    """tiling R1, R2, 1.1: the start FEN reads and writes back; 18x16 cells."""
    pos = TilingPosition.from_fen(T.START_FEN)
    assert pos.fen() == T.START_FEN and len(pos.board) == 18 * 16
    assert move_texts(pos) == reference_texts(T.start())
    for bad in ("18/18 w 4! 0 1", T.START_FEN.replace("4!", "0"), T.START_FEN.replace("kk2", "k3")):
        with pytest.raises(TilingError):
            TilingPosition.from_fen(bad)


def _compare(pos: TilingPosition, state: T.State) -> list[str]:
    assert pos.fen() == T.fen(state)
    assert pos.in_check() == T.is_check(state)
    assert pos.hash == pos.rehash()
    assert pos.occ == occupied_by_side(pos.board)  # the CellPosition state follows the cells
    king_cells = [[c for c, p in enumerate(pos.board) if p == pos.tables.king_code[side]] for side in (0, 1)]
    assert pos.kings == [min(cells) for cells in king_cells]  # the lower-left cell of each King's unit
    assert pos.made == len(state.made)
    texts = move_texts(pos)
    assert texts == reference_texts(state)
    return texts


def _random_game(pos: TilingPosition, state: T.State, rng: random.Random, plies: int) -> None:
    """Play random moves on both, ending turns at random when allowed; compare at every step; then
    unmake everything and find the first position again."""
    fen0, hash0 = pos.fen(), pos.hash
    for _ in range(plies):
        texts = _compare(pos, state)
        if T.can_end_turn(state) and (not texts or rng.random() < 0.3):
            state = T.end_turn(state)
            pos.end_turn()
            continue
        if not texts:
            break
        text = rng.choice(texts)
        state = T.play(state, text)
        pos.make(next(m for m in pos.legal() if pos.move_text(m) == text))
        if len(state.made) == state.allowance:
            if not T.can_end_turn(state):
                break  # a turn that ends in check is not legal (4.2): the game stops here
            state = T.end_turn(state)
            pos.end_turn()
    _compare(pos, state)
    while pos.stack:
        pos.unmake()
    assert (pos.fen(), pos.hash) == (fen0, hash0)
    assert pos.occ == occupied_by_side(pos.board)


@pytest.mark.parametrize("seed", range(4))
def test_differential_random_games_from_the_start(seed):
    """Seeded random games from the start: the core's legal moves and FENs equal the reference's."""
    _random_game(TilingPosition.from_fen(T.START_FEN), T.start(), random.Random(seed), 120)


@pytest.mark.parametrize("seed", range(40))
def test_differential_random_positions(seed):
    """Random sparse positions (aggregates, checks, King captures of units): the same at every step."""
    rng = random.Random(1000 + seed)
    state = random_position(rng)
    _random_game(core(state), state, rng, 40)


# ---------------------------------------------------------------- rulings on the core position

def _make_text(pos: TilingPosition, text: str) -> list[tuple[int, int]]:
    """Make the legal move written `text`; return its cell changes."""
    m = next(m for m in pos.legal() if pos.move_text(m) == text)
    changes = pos.changes(m)
    pos.make(m)
    assert pos.hash == pos.rehash()
    return changes


def test_t6_r6_aggregate_move_is_one_changes_list_capturing_the_unit():
    """tiling T6, R6: @c5c11 lifts the four Wazirs and places them on c11-d12, taking c11 and d12, as
    one list of cell changes; unmake restores the position and its hash."""
    pos = core(position({"c5": "W", "c6": "W", "d5": "W", "d6": "W", "h5": "G", "c11": "f", "d12": "n", "a6": "g"}))
    geo, before = pos.geometry, (pos.fen(), pos.hash)
    wazir = pos.code_for(0, "W")
    changes = _make_text(pos, "@c5c11")
    assert [(geo.names[c], code) for c, code in changes] == [
        ("c5", 0), ("d5", 0), ("c6", 0), ("d6", 0), ("c11", wazir), ("d11", wazir), ("c12", wazir), ("d12", wazir)]
    assert pos.captured and {geo.names[c] for c in pos.occ[1]} == {"i15", "j15", "i16", "j16", "a6"}
    assert [geo.unit_name(u) for u, _ in pos.aggregates()] == ["c11-d12"]
    pos.unmake()
    assert (pos.fen(), pos.hash) == before


def test_r4_giant_king_captures_the_unit_it_enters():
    """tiling R4, 3.3: the King's step lifts its four cells and places them on k1-l2, taking every
    enemy piece there, as one list of cell changes."""
    pos = core(position({"k1": "f", "l2": "g", "g3": "n"}))
    geo, king = pos.geometry, pos.code_for(0, "K")
    changes = _make_text(pos, "i1k1")
    assert sorted(geo.names[c] for c, code in changes if code == king) == sorted(["k1", "l1", "k2", "l2"])
    assert pos.kings[0] == geo.parse_cell("k1") and pos.king_moved and pos.captured
    assert {geo.names[c] for c in pos.occ[1]} == {"i15", "j15", "i16", "j16", "g3"}


def test_r8_king_squares_are_attacked_never_targets():
    """tiling R8: the Black Knight on h3 attacks i1 and j2 of the White King but has no move there."""
    pos = core(position({"h3": "n"}, side="b"))
    geo = pos.geometry
    dests = {t[2:] for t in move_texts(pos) if t.startswith("h3")}
    assert dests and not dests & {"i1", "i2", "j1", "j2"}
    assert pos.is_attacked(geo.parse_cell("i1"), 1) and pos.in_check(0)


def test_t9_check_on_any_king_square():
    """tiling T9, 4.2: the Black Knight on k4 attacks j2, so the King is in check; its only legal
    move is i1g1 (k1-l2 and i3-j4 are attacked)."""
    pos = core(position({"k4": "n"}))
    assert pos.in_check() and pos.is_attacked(pos.geometry.parse_cell("j2"), 1)
    assert move_texts(pos) == ["i1g1"]


def test_t10_r10_form_then_move_then_frozen():
    """tiling T10, R10: c7c6 completes c5-d6; its aggregate move follows in the same turn; afterwards
    none of the four Wazirs moves again that turn."""
    pos = core(position({"c5": "W", "d5": "W", "d6": "W", "c7": "W"}))
    _make_text(pos, "c7c6")
    assert "@c5c9" in move_texts(pos)
    _make_text(pos, "@c5c9")
    assert move_texts(pos) and not any(t.startswith(("c9", "c10", "d9", "d10", "@")) for t in move_texts(pos))


def test_t10_r11_turn_allowances():
    """tiling T10, R11: White 4 (exact), Black 8 (exact), White 1-9; after White's 5, Black 1-6;
    after Black's 2, White 1-3. end_turn and unmake keep the allowance with the position."""
    pos = TilingPosition.from_fen(T.START_FEN)
    seen = []
    for count in (4, 8, 5, 2):
        seen.append((pos.side, pos.allowance, pos.exact))
        for _ in range(count):
            pos.make(pos.legal()[0])
        pos.end_turn()
    seen.append((pos.side, pos.allowance, pos.exact))
    assert seen == [(0, 4, True), (1, 8, True), (0, 9, False), (1, 6, False), (0, 3, False)]
    while pos.stack:
        pos.unmake()
    assert pos.fen() == T.START_FEN and pos.hash == pos.rehash()


@pytest.mark.parametrize("budget", [0, 50, SEARCH_BUDGET])
def test_r12_turn_search_in_place_leaves_the_position_as_it_was(budget):
    """tiling R12 with turns.py in place: deciding which moves can complete the turn makes and unmakes
    every move and turn end it tries on the one position; whatever the budget (nothing to visit, cut
    short, the board's), in check or not, the position, its hash and its stacks come back unchanged."""

    rng = random.Random(5)
    checks = 0
    for _ in range(12):
        pos = core(random_position(rng))
        checks += pos.in_check()
        before = (pos.fen(), pos.hash, pos.key(), len(pos.stack), list(pos.history), list(pos.board))
        search = TurnSearch(turn_rule(pos), TilingModel(), search_key, budget)
        moves, _ = search.continuations(pos, 0, pos.side)
        assert set(moves) <= set(pos.legal())
        assert (pos.fen(), pos.hash, pos.key(), len(pos.stack), list(pos.history), list(pos.board)) == before
    assert checks


def test_r12_long_turn_in_check_offers_only_completable_moves():
    """tiling R12, 4.2: ten moves into a 12-move turn of a random game, in check: the board offers
    exactly the moves after which the reference's whole-turn search finds a legal end (the search
    budget covers the turn, so no undecided move is offered)."""
    from superchess.rules import Board

    fen = ("g1f1w2nf2ww2gg1/f2fww1g1w3nff2/wg2n3g1nn1g2fw/w2gg2f4g2n1g/n3f1kk1w1wf5/3f2kk5g4/1f16/5N5g1w4/"
           "7W8G1/w5F1N2F6/11W1G4/3FWW7FF3/W1GGGF1G1G2G1NW1F/WN1W4NW5WGN/4NGG1KK1W1F1G2/GW6KKW3WG1G b 12 4 32"
           " | n15p14 e16f16 i14h14 h15i13 l9m10 l14k12 d13d12 e12f14 p16q15 j15i15")
    b = Board("tilingrider", fen)
    state = T.parse(fen)
    assert b.is_check() and T.is_check(state)
    completable = {m.text for m in T.moves_in_turn(state) if T.legal_turn(T._apply(state, m), budget=20_000)}
    assert {m.text for m in b.legal_moves} == completable != set()


# ---------------------------------------------------------------- the check-escape bound (tiling_escape.py)

def _escapes_within(pos: TilingPosition, mover: int, moves: int) -> bool:
    """Exhaustively: do at most `moves` more legal moves of the turn leave the mover's King out of check?"""
    if not pos.in_check(mover):
        return True
    if moves == 0:
        return False
    for m in pos.legal():
        pos.make(m)
        ok = _escapes_within(pos, mover, moves - 1)
        pos.unmake()
        if ok:
            return True
    return False


@pytest.mark.parametrize("seed", range(6))
def test_4_2_escape_bound_never_cuts_a_way_out_of_check(seed):
    """tiling 4.2, R12: the turn search drops a branch when tiling_escape's bound says the King cannot
    be out of check within the moves left; the bound must be sound: in seeded random positions in
    check, at the turn's start and after random moves of it (pieces moved, aggregates frozen),
    whenever it says "cannot within k moves" an exhaustive search finds no way out within k (k = 1, 2),
    and it does cut somewhere (the test can fail both ways)."""
    from superchess.rules.tiling.escape import can_escape

    rng = random.Random(2000 + seed)
    checked = cut = 0
    while checked < 25:
        pos = core(random_position(rng))
        for _ in range(rng.randrange(3)):  # a few moves of the turn first, when they leave moves to make
            moves = pos.legal()
            if not moves or pos.made + 3 > pos.allowance:
                break
            pos.make(rng.choice(moves))
        if not pos.in_check() or pos.made + 2 > pos.allowance:
            continue
        checked += 1
        for k in (1, 2):
            if not can_escape(pos, k):
                cut += 1
                assert not _escapes_within(pos, pos.side, k), (pos.fen(), k)
    assert cut
