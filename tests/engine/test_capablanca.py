"""`superchess engine` on Capablanca Chess, a data-only variant (no edit to the engine or UCI): the
variant is offered as `UCI_Variant capablanca`, the best move after a seeded random opening and from
a position with promotions and en passant is legal for Fairy-Stockfish's `capablanca` (pyffish), and
the Chancellor's back-rank mate in one is found."""
from __future__ import annotations

import random

import pytest

sf = pytest.importorskip("pyffish")

START = sf.start_fen("capablanca")
# promotions with and without capture on both sides, en passant on d6 (as tests/rules/core/test_capablanca.py)
PROMOTIONS = "r1c2k3r/1P6P1/10/3pP5/10/10/1p6p1/R4K1C1R w KQkq d6 0 1"
# the Chancellor c1 mates on c8 (the Black King boxed in by its own pawns)
CHANCELLOR_MATE = "k9/pp8/10/10/10/10/10/2C2K4 w - - 0 1"


def best_move(uci, position: str, depth: int = 2) -> str:
    uci.send(f"position {position}")
    uci.send(f"go depth {depth}")
    return uci.until("bestmove")[-1].split()[1]


def test_capablanca_is_offered_and_its_best_moves_are_legal(uci):
    uci.send("uci")
    assert "var capablanca" in next(line for line in uci.until("uciok") if "name UCI_Variant" in line)
    uci.send("setoption name UCI_Variant value capablanca")
    rng, moves = random.Random(19), []
    for _ in range(12):
        moves.append(rng.choice(sf.legal_moves("capablanca", START, moves)))
    assert best_move(uci, "startpos moves " + " ".join(moves)) in sf.legal_moves("capablanca", START, moves)
    assert best_move(uci, f"fen {PROMOTIONS}") in sf.legal_moves("capablanca", PROMOTIONS, [])
    mate = best_move(uci, f"fen {CHANCELLOR_MATE}")
    assert sf.gives_check("capablanca", CHANCELLOR_MATE, [mate])
    assert sf.legal_moves("capablanca", CHANCELLOR_MATE, [mate]) == []
    assert uci.close() == 0
