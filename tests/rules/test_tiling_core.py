"""Tiling Rider on the core (rules/tiling_position.py over tiling_tables.py and tiling_geometry.py),
against the reference module rules/tiling.py as the oracle: seeded random games where the core's
legal moves (texts), check and FEN equal the reference's at every step, make/unmake and the Zobrist
hash stay consistent; plus the geometry (tiling T1, R3) and the move tables (T2-T4, R5)."""
from __future__ import annotations

import random

import pytest

from superchess.rules.tiling_position import TilingError, TilingPosition
from superchess.rules.tiling_tables import tiling_tables
from tests.rules import tiling_reference as T

from .test_tiling import position, random_position


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
