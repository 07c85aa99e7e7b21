"""The native core (Rust, `superchess._native`) against the Python core, its executable reference
(issue 20): in random games of every variant it plays (random rosters in the three program modes
and the Fortress for super16, random holdings for Superchess, Vanguard and pasted diagrams), every
position's legal move integers, the captures and cell changes of every move, check, mate,
stalemate, the outcome, FEN, hash and repetition count are equal; perft agrees at depth 3 (2 for
Vanguard from the start and a middlegame); bad input across the boundary raises the same errors
and changes nothing."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from superchess.rules import Board
from superchess.rules import get_variant
from superchess.rules.core.board import IllegalMoveError
from superchess.rules.core.encoding import DESTROY
from superchess.rules.core.fen import FenError
from superchess.rules.core.native import available
from superchess.rules.core.program import Program, ProgramError, Roster
from superchess.rules.diagram.variant import rules_from_diagram
from superchess.rules.game.setups import random_substitution, substitution_fen
from tests.oracles.chess_perft import KIWIPETE, POS3, POS4, POS5, POS6
from tests.rules.diagram.helpers import ORTHODOX, TINY
from tests.rules.strategies import super16_positions

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")

SUPER16_LETTERS = "QIRSBNAUFP"


def pair(variant, fen: str | None = None, rosters=None) -> tuple[Board, Board]:
    """The same game on the Python core and on the native core."""
    py, nat = Board(variant, fen, rosters, core="python"), Board(variant, fen, rosters, core="native")
    assert (py.core, nat.core) == ("python", "native")
    return py, nat


def assert_same(py: Board, nat: Board) -> list[int]:
    """Everything the two cores say about the current position agrees; returns the legal codes."""
    codes = sorted(py._pos.legal())
    assert sorted(nat._pos.legal()) == codes, py.fen()
    assert nat.fen() == py.fen()
    assert nat.zobrist_hash() == py.zobrist_hash() == nat._pos.rehash()
    assert nat.repetition_count() == py.repetition_count()
    assert (nat.is_check(), nat.is_checkmate(), nat.is_stalemate()) == \
        (py.is_check(), py.is_checkmate(), py.is_stalemate())
    assert nat.outcome() == py.outcome()
    assert nat.pieces() == py.pieces()
    moves = py.legal_moves
    assert [mv.text for mv in nat.legal_moves] == [mv.text for mv in moves]
    for mv in moves:
        assert nat.captures(mv) == py.captures(mv), mv.text
        assert nat.effects(mv) == py.effects(mv), mv.text
    return codes


def random_game(py: Board, nat: Board, seed: int, plies: int, takebacks: bool = True) -> int:
    """Plays seeded random moves on both boards (captures preferred; sometimes a move back to
    where the piece came from, so positions repeat; sometimes a take-back), checking every
    position. Returns the number of positions checked."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(plies):
        codes = assert_same(py, nat)
        checked += 1
        if not codes or py.outcome() is not None:
            break
        if takebacks and py.move_stack and rng.random() < 0.1:
            assert nat.pop() == py.pop()
            continue
        moves = py.legal_moves
        captures = [mv for mv in moves if py.captures(mv)]
        last = py.move_stack[-2] if len(py.move_stack) >= 2 else None
        back = [mv for mv in moves if last and (mv.from_cell, mv.to_cell) == (last.to_cell, last.from_cell)]
        r = rng.random()
        pool = back if back and r < 0.3 else captures if captures and r < 0.7 else moves
        mv = rng.choice(pool)
        py.push(mv)
        nat.push(mv)
    return checked


def random_program(rng: random.Random, mode: str) -> Program:
    span = rng.choice((2, 3, 15))
    vectors = set()
    while len(vectors) < rng.randint(1, 6):
        v = (rng.randint(-span, span), rng.randint(-span, span))
        if v != (0, 0):
            vectors.add(v)
    return Program(mode, tuple(sorted(vectors)))


def random_rosters(seed: int, mode: str) -> tuple[Board, Board]:
    """A super16 game whose rosters reprogram a few pieces (one program mode, the Fortress among
    the candidates), redrawn until the start position is legal."""
    rng = random.Random(seed)
    while True:
        rosters = tuple(Roster({letter: random_program(rng, mode) for letter in rng.sample(SUPER16_LETTERS, 3)})
                        for _ in (0, 1))
        try:
            return pair("super16", None, rosters)
        except FenError:
            continue


# -- random games ----------------------------------------------------------------------------
@pytest.mark.parametrize("fen", [None, KIWIPETE, POS4, POS5])
def test_chess_random_games_agree(fen):
    assert random_game(*pair("chess", fen), seed=len(fen or ""), plies=60) > 10


@pytest.mark.parametrize("seed", range(2))
def test_super16_random_games_agree(seed):
    assert random_game(*pair("super16"), seed=seed, plies=50) > 10


@pytest.mark.parametrize("mode", ["jump", "step", "slide"])
@pytest.mark.parametrize("seed", range(2))
def test_super16_reprogrammed_random_games_agree(mode, seed):
    assert random_game(*random_rosters(seed, mode), seed=seed, plies=40) > 5


@pytest.mark.parametrize("fen, first", [
    ("16/16/16/16/16/16/16/4k11/16/16/8p7/6FP8/3K3N8/16/16/16 b - - 0 1", None),
    ("16/16/16/16/16/16/16/4k11/16/16/8p7/6F9/3K3PN7/16/16/16 w - - 0 1", "h4h6"),
])
def test_super16_fortress_garrison_agrees(fen, first):
    """The Fortress rule (R8): taking a garrisoned piece removes the capturer too, en passant
    included (the double step counts in the hash only because that capture is legal)."""
    py, nat = pair("super16", fen)
    if first:
        py.push_text(first)
        nat.push_text(first)
    assert [mv.text for mv in nat.legal_moves if mv.code & DESTROY] == ["i6h5"]
    assert random_game(py, nat, seed=5, plies=20) > 5


@pytest.mark.parametrize("seed", range(3))
def test_superchess_random_holdings_agree(seed):
    variant = get_variant("superchess")
    fen = substitution_fen(variant, random_substitution(variant, seed))
    assert random_game(*pair("superchess", fen), seed=seed, plies=70) > 10


@pytest.mark.parametrize("seed", range(2))
def test_vanguard_random_games_agree(seed):
    assert random_game(*pair("vanguard"), seed=seed, plies=45) > 10


@pytest.mark.parametrize("line", [ORTHODOX, TINY])
def test_pasted_diagram_random_games_agree(line):
    rules = rules_from_diagram(line, "pasted")
    for seed in range(2):
        random_game(*pair(rules), seed=seed, plies=50)


# -- perft -----------------------------------------------------------------------------------
def middlegame(variant, seed: int, plies: int, rosters=None) -> str:
    board = Board(variant, None, rosters, core="python")
    rng = random.Random(seed)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    return board.fen()


def assert_perft(variant, fen: str | None, depth: int, rosters=None) -> None:
    py, nat = pair(variant, fen, rosters)
    assert nat.perft(depth) == py.perft(depth), (variant, fen)
    assert nat.fen() == py.fen()


@pytest.mark.parametrize("fen", [None, KIWIPETE, POS3, POS4, POS5, POS6])
def test_chess_perft_3_agrees(fen):
    assert_perft("chess", fen, 3)


@pytest.mark.parametrize("seed", range(2))
def test_super16_perft_3_agrees(seed):
    assert_perft("super16", None if seed == 0 else middlegame("super16", seed, 40), 3)


def test_super16_reprogrammed_perft_3_agrees():
    py, _ = random_rosters(7, "slide")
    assert_perft("super16", middlegame("super16", 3, 20, py.rosters), 3, py.rosters)


@pytest.mark.parametrize("seed", range(2))
def test_superchess_perft_3_agrees(seed):
    variant = get_variant("superchess")
    assert_perft("superchess", substitution_fen(variant, random_substitution(variant, seed)), 3)


@pytest.mark.parametrize("plies", [0, 30])
def test_vanguard_perft_2_agrees(plies):
    assert_perft("vanguard", middlegame("vanguard", plies, plies), 2)


@pytest.mark.slow
def test_vanguard_perft_3_agrees():
    assert_perft("vanguard", None, 3)


@pytest.mark.parametrize("line", [ORTHODOX, TINY])
def test_pasted_diagram_perft_3_agrees(line):
    rules = rules_from_diagram(line, "pasted")
    assert_perft(rules, None, 3)
    assert_perft(rules, middlegame(rules, 1, 12), 3)


# -- bad input across the boundary -------------------------------------------------------------
def test_bad_text_raises_the_same_errors():
    for core in ("python", "native"):
        with pytest.raises(FenError, match="6 fields"):
            Board("chess", "8/8 w", core=core)
        with pytest.raises(ProgramError, match="1 to 64 vectors"):
            many = Program("jump", tuple((x, y) for x in range(-15, 16) for y in range(-15, 16) if (x, y) != (0, 0)))
            Board("super16", None, (Roster({"N": many}), Roster()), core=core)
        board = Board("chess", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", core=core)  # mated: a finished game
        with pytest.raises(IllegalMoveError):
            board.push_text("h8g8")
        with pytest.raises(IndexError):
            board.pop()


def test_native_position_refuses_bad_integers_and_changes_nothing():
    _, nat = pair("super16")
    pos = nat._pos
    fen, h = nat.fen(), pos.hash
    for bad in (0, -1, 1 << 70, (1 << 30) | (1 << 40), 5 | 200 << 10):
        with pytest.raises((ValueError, OverflowError)):
            pos.make(bad)
    for bad in (-1, 256, 1 << 40):
        with pytest.raises((ValueError, OverflowError)):
            pos.is_attacked(bad, 0)
    with pytest.raises((ValueError, OverflowError)):
        pos.changes(1023 | 1023 << 10)
    with pytest.raises(IndexError):
        pos.unmake()
    assert (nat.fen(), pos.hash) == (fen, h)


@st.composite
def codes_and_ops(draw):
    """Operations on a position: (kind, number); kinds push a legal move by index, push any
    integer, take back, ask for a move's changes."""
    return draw(st.lists(st.tuples(st.sampled_from(["legal", "legal", "legal", "any", "pop", "changes"]),
                                   st.integers(0, (1 << 64) - 1)), max_size=30))


@settings(max_examples=12, deadline=None)
@given(super16_positions(with_rosters=True), codes_and_ops())
def test_native_api_under_arbitrary_positions_and_move_sequences(position, ops):
    fen, rosters = position
    py, nat = pair("super16", fen, rosters)
    for kind, n in ops:
        legal = sorted(py._pos.legal())
        if kind == "legal" and legal:
            m = legal[n % len(legal)]
            py._pos.make(m)
            nat._pos.make(m)
        elif kind == "any":
            if n in legal:
                continue
            before = nat.fen(), nat.zobrist_hash()
            with pytest.raises((ValueError, OverflowError)):
                nat._pos.make(n)
            assert (nat.fen(), nat.zobrist_hash()) == before
        elif kind == "pop":
            if py._pos.stack:
                py._pos.unmake()
                nat._pos.unmake()
            else:
                with pytest.raises(IndexError):
                    nat._pos.unmake()
        elif kind == "changes" and legal:
            m = legal[n % len(legal)]
            assert [tuple(c) for c in nat._pos.changes(m)] == [tuple(c) for c in py._pos.changes(m)]
        assert sorted(nat._pos.legal()) == sorted(py._pos.legal())
        assert (nat.fen(), nat.zobrist_hash(), nat.is_check()) == (py.fen(), py.zobrist_hash(), py.is_check())
        assert nat._pos.repetitions() == py._pos.repetitions()
