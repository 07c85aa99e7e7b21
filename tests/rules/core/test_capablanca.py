"""Capablanca Chess (10x8, Archbishop = Bishop + Knight, Chancellor = Rook + Knight), a data-only
variant (core/data/capablanca.toml and one registry line), against Fairy-Stockfish's `capablanca`:
perft from the start and two middlegames, and legal moves move for move (pyffish) in seeded random
games, on the Python core and on the native core."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest

from superchess.rules import Board
from superchess.rules.core.native import available

sf = pytest.importorskip("pyffish")

CORES = ["python", pytest.param("native", marks=pytest.mark.skipif(not available(),
                                                                    reason="the native core is not built"))]
START = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
# both castlings open to White (the Archbishop on c5, the Chancellor on g3)
CASTLES = "r2bqkb2r/pppppppp1p/3a2cn2/2A5p1/B1n4P1B/NQP3C2N/PP1PPPP1PP/R4K3R w KQkq - 2 12"
# promotions with and without capture on both sides, en passant on d6, castling out of reach
PROMOTIONS = "r1c2k3r/1P6P1/10/3pP5/10/10/1p6p1/R4K1C1R w KQkq d6 0 1"
# Depths 1-4 measured once with Fairy-Stockfish 11.1 LB 64 (/usr/games/fairy-stockfish): `setoption
# name UCI_Variant value capablanca`, `position fen <FEN>`, `go perft <depth>` ("Nodes searched").
PERFT = [
    ("start", START, [28, 784, 25228]),
    ("castles", CASTLES, [67, 3099, 189453]),
    ("promotions", PROMOTIONS, [69, 3413, 170876]),
]
PERFT_DEEP = [("start", START, 805128), ("castles", CASTLES, 9045812), ("promotions", PROMOTIONS, 7680316)]  # depth 4
GAMES, PLIES = 12, 60
CASTLING = {"f1i1", "f1c1", "f8i8", "f8c8"}


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name, fen, counts", PERFT, ids=[p[0] for p in PERFT])
def test_perft_equals_fairy_stockfish(core, name, fen, counts):
    board = Board("capablanca", fen, core=core)
    assert board.core == core
    assert [board.perft(depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.slow
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name, fen, count", PERFT_DEEP, ids=[p[0] for p in PERFT_DEEP])
def test_perft_4_equals_fairy_stockfish(core, name, fen, count):
    assert Board("capablanca", fen, core=core).perft(4) == count


@dataclass(frozen=True)
class Ply:
    """One position of a reference game as pyffish sees it, and the move played from it."""
    legal: frozenset[str]
    check: bool
    move: str | None = None             # None: the game ended here
    after: tuple[str, ...] = ()         # the next FEN's fields (`_fields`)
    offered: frozenset[str] = frozenset()  # the kinds of special move offered (`_kind`)
    played: str = ""                       # the kind of the move played


def _pieces(fen: str) -> dict[str, str]:
    """Square name -> letter of a FEN's placement."""
    out = {}
    for rank, row in zip(range(8, 0, -1), fen.split()[0].split("/")):
        file = 0
        for token in re.findall(r"\d+|.", row):
            if token.isdigit():
                file += int(token)
            else:
                out[f"{chr(97 + file)}{rank}"] = token
                file += 1
    return out


def _kind(pieces: dict[str, str], text: str) -> str:
    """What sort of special move `text` is among `pieces` ("" for none)."""
    if len(text) == 5 and text[-1] in "ac":
        return "promotion to " + text[-1].upper()
    letter = pieces[text[:2]].upper()
    if letter == "K" and text in CASTLING:
        return "castling"
    if letter == "P" and text[0] != text[2] and text[2:4] not in pieces:
        return "en passant"
    return ""


def _fields(fen: str) -> tuple[str, ...]:
    """A FEN without its en passant field (Fairy-Stockfish writes it only when a capture exists)."""
    placement, side, castling, _, half, full = fen.split()
    return placement, side, castling, half, full


@pytest.fixture(scope="module")
def reference_games() -> list[tuple[str, list[Ply]]]:
    """Seeded random games played by pyffish from the start and the two middlegames, a special
    move (castling, en passant, promotion to A or C) played whenever offered, three times in four."""
    rng = random.Random(20260719)
    games = []
    for game in range(GAMES):
        start = (START, CASTLES, PROMOTIONS)[game % 3]
        fen, moves, plies = start, [], []
        for _ in range(PLIES):
            legal = sorted(sf.legal_moves("capablanca", start, moves))
            check = sf.gives_check("capablanca", start, moves)
            if not legal:
                plies.append(Ply(frozenset(), check))
                break
            pieces = _pieces(fen)
            special = [t for t in legal if _kind(pieces, t)]
            text = rng.choice(special if special and rng.random() < 0.75 else legal)
            moves.append(text)
            fen = sf.get_fen("capablanca", start, moves)
            plies.append(Ply(frozenset(legal), check, text, _fields(fen),
                             frozenset(_kind(pieces, t) for t in special), _kind(pieces, text)))
        games.append((start, plies))
    return games


def test_the_reference_games_offer_and_play_every_special_move(reference_games):
    plies = [ply for _, game in reference_games for ply in game]
    offered = set().union(*(ply.offered for ply in plies))
    played = {ply.played for ply in plies}
    kinds = {"castling", "en passant", "promotion to A", "promotion to C"}
    assert len(plies) >= 500 and any(ply.check for ply in plies)
    assert kinds <= offered and kinds <= played, (offered, played)


@pytest.mark.parametrize("core", CORES)
def test_legal_moves_agree_with_pyffish_in_random_games(core, reference_games):
    """Every position of the reference games: our legal moves and check are pyffish's, and so is
    the position after each move."""
    for start, plies in reference_games:
        board = Board("capablanca", start, core=core)
        for ply in plies:
            ours = {m.text for m in board.legal_moves}
            fen = board.fen()
            assert ours == ply.legal, f"{fen}: only ours {sorted(ours - ply.legal)}, only theirs {sorted(ply.legal - ours)}"
            assert board.is_check() == ply.check, fen
            if ply.move is None:
                assert board.is_game_over()
                break
            board.push_text(ply.move)
            assert _fields(board.fen()) == ply.after, (fen, ply.move)
