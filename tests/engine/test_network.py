"""The learned evaluation network (engine/network.py, native/src/search/network.rs): the native
search adds the shipped chess network's correction to its evaluation, exactly as the Python
reference computes it; files are checked; only orthodox chess with the standard rosters has one."""
from __future__ import annotations

import random
from array import array

import chess
import pytest

from superchess import _native
from superchess.engine import native_search, network
from superchess.engine.evaluate import Evaluator
from superchess.rules import Board, Roster

STANDARD = (Roster(), Roster())


def reference(net: network.Network, board: chess.Board) -> int:
    """The Python reference's score of a python-chess position, for the side to move."""
    white, black = network.views((0 if piece.color == chess.WHITE else 1,
                                  network.KINDS.index(piece.symbol().upper()), square)
                                 for square, piece in board.piece_map().items())
    return net.evaluate(white, black, 0 if board.turn == chess.WHITE else 1)


def random_game(seed: int, plies: int = 80) -> list[chess.Move]:
    """A game of random moves, captures preferred (so that material changes and pawns promote)."""
    rng = random.Random(seed)
    board = chess.Board()
    moves = []
    while len(moves) < plies and not board.is_game_over():
        legal = list(board.legal_moves)
        captures = [m for m in legal if board.is_capture(m) or m.promotion]
        move = rng.choice(captures if captures and rng.random() < 0.6 else legal)
        moves.append(move)
        board.push(move)
    return moves


def bare_king(board: chess.Board) -> bool:
    """Has a side nothing but its King (where the native search leaves the network out)?"""
    return any(chess.popcount(board.occupied_co[colour]) == 1 for colour in chess.COLORS)


def correction_of(board: chess.Board) -> int:
    """The native search's network correction for a python-chess position, for the side to move."""
    corrected = native_search.evaluation(Evaluator("chess", STANDARD))
    uncorrected = native_search.evaluation(Evaluator("chess", STANDARD, corrected=False))
    probe = _native.Searcher(1)
    position = Board("chess", board.fen()).native_position()[0]
    return probe.evaluate(position, corrected)[0] - probe.evaluate(position, uncorrected)[0]


def test_chess_ships_a_network_and_the_native_search_adds_its_correction():
    ev = Evaluator("chess", STANDARD)
    assert ev.network is not None
    corrected = native_search.evaluation(ev)
    uncorrected = native_search.evaluation(Evaluator("chess", STANDARD, corrected=False))
    probe = _native.Searcher(1)
    board = chess.Board()
    seen = set()
    for seed in range(6):
        board.reset()
        for move in random_game(seed):
            board.push(move)
            position = Board("chess", board.fen()).native_position()[0]
            correction = probe.evaluate(position, corrected)[0] - probe.evaluate(position, uncorrected)[0]
            assert correction == (0 if bare_king(board) else reference(ev.network, board)), board.fen()
            seen.add(correction)
    assert len(seen) > 30  # the corrections follow the positions


@pytest.mark.parametrize("bare, not_bare", [
    ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "8/8/8/4k3/8/8/6p1/KQ6 w - - 0 1"),
    ("8/8/4k3/8/8/8/8/R3K3 b - - 0 1", "8/8/4k3/6p1/8/8/8/R3K3 b - - 0 1"),
    ("8/8/8/8/4k3/8/8/2BBK3 w - - 0 1", "8/p7/8/8/4k3/8/8/2BBK3 w - - 0 1"),
    ("8/P6k/8/8/8/8/8/K7 w - - 0 1", "8/P6k/8/8/8/8/7p/K7 w - - 0 1"),
    ("4kq2/8/8/8/8/8/8/4K3 w - - 0 1", "4kq2/8/8/8/8/8/P7/4K3 w - - 0 1"),
])
def test_a_side_with_its_king_alone_gets_no_correction(bare, not_bare):
    """Endings against a bare King are mates the search finds; the network, whose training
    positions leave mates out, would only pull their scores towards a draw (docs/engine.md). A
    pawn more for that side and the correction is back."""
    net = Evaluator("chess", STANDARD).network
    board, other = chess.Board(bare), chess.Board(not_bare)
    assert bare_king(board) and not bare_king(other)
    assert reference(net, board) != 0 and correction_of(board) == 0
    assert correction_of(other) == reference(net, other) != 0


@pytest.mark.parametrize("line", [
    # an en passant capture, both sides castling short, a promotion that captures
    "e2e4 g8f6 e4e5 d7d5 e5d6 e7e6 g1f3 f8e7 f1e2 e8g8 e1g1 a7a6 d6c7 a6a5 c7b8q",
    # both Kings cross from files e-h to a-d and back, and capture on the way
    "e2e4 e7e5 d2d4 d7d5 e1e2 e8e7 e2d3 e7d6 d3e3 d6e6 e4d5 e6d5 d4e5 d5e5",
    # both sides castle long (the King crosses), then step on
    "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1 e8c8 c1b1 c8b8 g2g4 f5g4",
])
def test_the_network_is_kept_move_by_move_through_every_kind_of_move(line):
    ev = Evaluator("chess", STANDARD)
    native = native_search.evaluation(ev)
    plain = native_search.evaluation(Evaluator("chess", STANDARD, corrected=False))
    probe = _native.Searcher(1)
    start = Board("chess")
    codes, board = [], Board("chess")
    for uci in line.split():
        move = board.parse_move(uci)
        codes.append(move.code)
        board.push(move)
    position = chess.Board()
    for k, uci in enumerate(line.split(), 1):
        position.push_uci(uci)
        kept, fresh, _ = probe.evaluate(start.native_position()[0], native, codes[:k])
        uncorrected = probe.evaluate(start.native_position()[0], plain, codes[:k])[0]
        assert kept == fresh == uncorrected + reference(ev.network, position), uci


def test_a_view_whose_king_is_on_files_e_to_h_sees_the_board_mirrored():
    """The correction of a position equals that of its mirror image (files reversed), natively
    and in the reference: each side's King is on files a-d in exactly one of the two."""
    ev = Evaluator("chess", STANDARD)
    corrected = native_search.evaluation(ev)
    uncorrected = native_search.evaluation(Evaluator("chess", STANDARD, corrected=False))
    probe = _native.Searcher(1)

    def correction(board: chess.Board) -> int:
        position = Board("chess", board.fen()).native_position()[0]
        return probe.evaluate(position, corrected)[0] - probe.evaluate(position, uncorrected)[0]
    board = chess.Board()
    for move in random_game(11, plies=60):
        board.push(move)
        mirror = board.transform(chess.flip_horizontal)
        mirror.castling_rights = chess.BB_EMPTY
        plain = board.copy()
        plain.castling_rights = chess.BB_EMPTY
        assert reference(ev.network, mirror) == reference(ev.network, plain), board.fen()
        assert correction(mirror) == correction(plain) == reference(ev.network, plain), board.fen()


def test_only_orthodox_chess_with_standard_rosters_has_a_network():
    assert Evaluator("chess", STANDARD, learned=False).network is None  # what table tuning fits
    assert Evaluator("chess", STANDARD, corrected=False).network is None  # what the network is trained on
    for variant in ("super16", "superchess", "capablanca"):
        assert Evaluator(variant, STANDARD).network is None


def test_the_file_round_trips_its_quantized_weights():
    rng = random.Random(3)
    h = network.HIDDEN
    w1 = [[rng.uniform(-1, 1) for _ in range(h)] for _ in range(network.INPUTS)]
    b1 = [rng.uniform(-0.5, 0.5) for _ in range(h)]
    w2 = [rng.uniform(-2, 2) for _ in range(2 * h)]
    net = network.decode(network.encode(w1, b1, w2, 0.25), "test")
    assert net.w1[5 * h + 7] == round(w1[5][7] * network.QA)
    assert list(net.b1) == [round(x * network.QA) for x in b1]
    assert list(net.w2) == [round(x * network.QB) for x in w2]
    assert net.b2 == round(0.25 * network.QA * network.QB)


@pytest.mark.parametrize("damage, message", [
    (lambda data: b"NOTANET!" + data[8:], "not a network file"),
    (lambda data: data[:-2], "bytes, expected"),
    (lambda data: data[:8] + array("H", [64, network.SCALE, network.QA, network.QB]).tobytes() + data[16:], "shape"),
])
def test_a_damaged_file_is_refused_with_its_name(damage, message):
    data = (network.NETS_DIR / "chess.net").read_bytes()
    with pytest.raises(ValueError, match=f"broken.net: .*{message}"):
        network.decode(damage(data), "broken.net")
