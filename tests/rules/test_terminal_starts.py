"""A position text can describe a game that is already over (checkmate, stalemate, an automatic draw).
For every variant the public `Board.outcome()` (equivalently `is_game_over()`) says so on the board
read from that text, before any move: what a server needs to refuse such a start."""
from __future__ import annotations

import pytest

from superchess.rules import VARIANTS, Board, Termination
from tests.oracles import tiling as T
from tests.oracles.tiling import position
from tests.rules.helpers import make_fen

EMPTY_POINTS = "/".join(["9"] * 9)
#: 16 x 16 boards (super16, Vanguard): Black's King p16 in the corner, White's King a1.
MATED_16 = {"a16": "R", "b15": "R", "a1": "K", "p16": "k"}      # a16 checks along rank 16, b15 holds rank 15
STALEMATED_16 = {"o1": "R", "a15": "R", "a1": "K", "p16": "k"}  # file o and rank 15 held, p16 not attacked


def vanguard(pieces: dict[str, str], halfmove: int = 0) -> str:
    """Vanguard's text (no castling or en passant fields; no unmoved rights)."""
    return " ".join(make_fen("super16", pieces, side="b").split()[:2] + ["-", str(halfmove), "1"])


TERMINAL = {  # variant -> [(position text, how the game ended)]
    "chess": [("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", Termination.CHECKMATE),
              ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Termination.STALEMATE),
              ("7k/8/6K1/8/8/8/8/8 b - - 0 1", Termination.INSUFFICIENT_MATERIAL),
              ("7k/8/6K1/8/8/8/8/R7 b - - 150 90", Termination.MOVE_RULE)],
    "capablanca": [("9k/8Q1/8K1/10/10/10/10/10 b - - 0 1", Termination.CHECKMATE),
                   ("9k/7Q2/8K1/10/10/10/10/10 b - - 0 1", Termination.STALEMATE),
                   ("9k/10/8K1/10/10/10/10/10 b - - 0 1", Termination.INSUFFICIENT_MATERIAL),
                   ("9k/10/8K1/10/10/10/10/R9 b - - 150 90", Termination.MOVE_RULE)],
    "superchess": [("7k/6Q1/6K1/8/8/8/8/8[] b - - 0 1", Termination.CHECKMATE),
                   ("7k/5Q2/6K1/8/8/8/8/8[N] b - - 0 1", Termination.STALEMATE)],
    "super16": [(make_fen("super16", MATED_16, side="b"), Termination.CHECKMATE),
                (make_fen("super16", STALEMATED_16, side="b"), Termination.STALEMATE),
                (make_fen("super16", STALEMATED_16 | {"a2": "R"}, halfmove=300), Termination.MOVE_RULE)],
    "vanguard": [(vanguard(MATED_16), Termination.CHECKMATE),
                 (vanguard(STALEMATED_16), Termination.STALEMATE),
                 (vanguard({"a1": "K", "h8": "R"}), Termination.CHECKMATE),  # R15: Black has no King (and no Prince)
                 (vanguard({"o1": "R", "a1": "K", "p16": "k"}, halfmove=100), Termination.MOVE_RULE)],
    "intergrid": [(f"7k/6Q1/6K1/8/8/8/8/8 {EMPTY_POINTS} b - - 0 1", Termination.CHECKMATE),
                  (f"7k/5Q2/6K1/8/8/8/8/8 {EMPTY_POINTS} b - - 0 1", Termination.STALEMATE)],
    # tiling 4.3: White's King a1-b2 in the corner; Black's aggregate of Wazirs (a Rook) on a7-b8 checks
    # along files a-b, the one on c9-d10 holds c1-d2; the Wazirs on q5, o5 are too far to help.
    # Stalemate: the Ferzes attack d2 and b4, so neither neighbour unit may be entered; a1-b2 is not attacked.
    "tilingrider": [
        (T.text(position({"a7": "w", "a8": "w", "b7": "w", "b8": "w", "c9": "w", "c10": "w", "d9": "w", "d10": "w",
                          "q5": "W", "o5": "W"}, kings=("a1", "q15"), allowance="2")), Termination.CHECKMATE),
        (T.text(position({"e3": "f", "c5": "f"}, kings=("a1", "i15"), allowance="2")), Termination.STALEMATE),
        (T.text(position({"e3": "f", "c5": "f", "r1": "W"}, kings=("a1", "i15"), quiet=100)), Termination.MOVE_RULE)],
}


def test_every_variant_has_terminal_start_cases():
    assert set(TERMINAL) == set(tuple(VARIANTS))


@pytest.mark.parametrize("variant,text,termination",
                         [(v, text, how) for v, cases in TERMINAL.items() for text, how in cases])
def test_a_terminal_start_position_is_over_before_any_move(variant, text, termination):
    b = Board(variant, text)
    outcome = b.outcome()
    assert outcome is not None and outcome.termination is termination and b.is_game_over()
    if termination is Termination.CHECKMATE:
        assert outcome.winner == 1 - b.turn and not b.legal_moves
    if termination is Termination.STALEMATE:
        assert outcome.winner is None and not b.legal_moves


@pytest.mark.parametrize("variant", tuple(VARIANTS))
def test_the_start_position_is_not_over(variant):
    assert Board(variant).outcome() is None and not Board(variant).is_game_over()
