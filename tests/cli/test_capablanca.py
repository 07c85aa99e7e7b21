"""The superchess command on Capablanca Chess, a data-only variant (its data file and registry line,
no edit to the CLI): the start position, the legal moves in a seeded random game as Fairy-Stockfish's
`capablanca` lists them (pyffish), and perft with its divide equal to Fairy-Stockfish's."""
from __future__ import annotations

import random

import pytest

from tests.cli.helpers import run

sf = pytest.importorskip("pyffish")


def test_fen_is_fairy_stockfishs_start_position(capsys):
    code, out, _ = run(capsys, "fen", "--variant", "capablanca")
    assert code == 0 and out.strip() == sf.start_fen("capablanca")


def test_moves_in_a_random_game_are_fairy_stockfishs(capsys):
    rng, moves = random.Random(19), []
    for _ in range(40):
        expected = sorted(sf.legal_moves("capablanca", sf.start_fen("capablanca"), moves))
        code, out, _ = run(capsys, "moves", "--variant", "capablanca", "--moves", *moves)
        assert code == 0 and out.split() == expected, moves
        if not expected:
            break
        moves.append(rng.choice(expected))


def test_perft_and_divide_are_fairy_stockfishs(capsys):
    """Depth 3 from the start: 25228 (Fairy-Stockfish `go perft 3`), divided over its 28 first moves."""
    code, out, _ = run(capsys, "perft", "--variant", "capablanca", "--depth", "3", "--divide")
    lines = out.strip().splitlines()
    divide = dict(line.split(": ") for line in lines[:-1])
    assert code == 0 and int(lines[-1]) == 25228 and sum(map(int, divide.values())) == 25228
    assert sorted(divide) == sorted(sf.legal_moves("capablanca", sf.start_fen("capablanca"), []))


def test_castling_through_pieces_is_a_one_line_error(capsys):
    code, out, err = run(capsys, "moves", "--variant", "capablanca", "--moves", "f1i1")
    assert code != 0 and out == "" and len(err.strip().splitlines()) == 1 and "illegal move f1i1" in err
