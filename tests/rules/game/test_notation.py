"""The readable notation (docs/notation.md, superchess/rules/game/notation.py): random games in every
registered variant written in it and read back give the same moves (on both cores where the native
one plays the variant), chess agrees with python-chess's SAN, and records in either form read back."""
from __future__ import annotations

import random

import pytest

from superchess.rules import VARIANTS, Board, IllegalMoveError
from superchess.rules.core.native import available
from superchess.rules.core.turns import END_TURN
from superchess.rules.game import notation
from superchess.rules.game.record import Game

from tests.rules.tiling.helpers import board as tiling_board

chess = pytest.importorskip("chess")

PLIES = {"tilingrider": 24, "intergrid": 40}


def _cores(name: str) -> list[str]:
    """The cores that really play `name` here (the native one where it is built and plays it)."""
    cores = ["python"]
    if available() and Board(name, core="native").core == "native":
        cores.append("native")
    return cores


CASES = [(name, core) for name in VARIANTS for core in _cores(name)]


def _random_game(name: str, core: str, seed: int, plies: int) -> Board:
    """A seeded random game, captures preferred half the time (so that marks and captures occur)."""
    rng = random.Random(seed)
    board = Board(name, core=core)
    for _ in range(plies):
        legal = board.legal_moves
        if not legal or board.is_game_over():
            break
        captures = [m for m in legal if m.from_cell >= 0 and board.captures(m)]
        board.push(rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(legal))
    return board


@pytest.mark.parametrize("name,core", CASES)
def test_random_games_read_back_to_the_same_moves(name, core):
    """Every move of random games, written readable and read back in its position, is the same move;
    every position's readable texts are distinct and none is another move's machine text."""
    for seed in (1, 2):
        board = _random_game(name, core, seed, PLIES.get(name, 60))
        texts = notation.readable_moves(board)
        assert len(texts) == len(board.move_stack)
        replay = Board(name, core=core)
        for move, text in zip(board.move_stack, texts):
            forms = notation.move_texts(replay)
            assert len(set(forms.values())) == len(forms), forms
            assert not set(forms.values()) & (set(forms) - {text.rstrip("+#")})
            assert notation.read(replay, text).text == move.text, (replay.fen(), text)
            assert notation.read(replay, move.text).text == move.text  # the machine text reads too
            replay.push(move)
        assert replay.fen() == board.fen()


@pytest.mark.parametrize("name,core", [(n, c) for n, c in CASES if not VARIANTS[n].family.capabilities.lists_captures])
def test_one_move_text_equals_the_whole_positions(name, core):
    """`plain_text` of one move (written from the moves sharing its origin or destination where
    captures are not listed) equals its text among every legal move of the position."""
    board = _random_game(name, core, 3, PLIES.get(name, 60))
    replay = Board(name, core=core)
    for move in board.move_stack:
        whole = notation.move_texts(replay)
        for candidate in replay.legal_moves:
            if candidate.from_cell >= 0:
                assert notation.plain_text(replay, candidate) == whole[candidate.text], replay.fen()
        replay.push(move)


@pytest.mark.slow
@pytest.mark.parametrize("name,core", CASES)
def test_every_legal_move_reads_back(name, core):
    """In every position of a random game, every legal move's readable text reads back to it."""
    board = _random_game(name, core, 7, PLIES.get(name, 60))
    replay = Board(name, core=core)
    for move in board.move_stack:
        for candidate in replay.legal_moves:
            if candidate.from_cell >= 0:
                assert notation.read(replay, notation.readable(replay, candidate)).text == candidate.text
        replay.push(move)


@pytest.mark.parametrize("core", _cores("chess"))
def test_chess_matches_python_chess_san(core):
    """Differential: in random chess games every legal move's text is python-chess's SAN."""
    rng = random.Random(11)
    for _ in range(6):
        ours, ref = Board("chess", core=core), chess.Board()
        for _ in range(120):
            moves = ours.legal_moves
            if not moves:
                break
            written = {}
            for m, text in notation.move_texts(ours).items():  # `readable` move by move, one listing
                mover = ours.turn
                ours.push(ours.parse_move(m))
                written[m] = text + notation.mark(ours, mover)
                ours.pop()
            assert written == {m.uci(): ref.san(m) for m in ref.legal_moves}, ref.fen()
            move = rng.choice(moves)
            ours.push(move)
            ref.push_uci(move.text)


@pytest.mark.parametrize("fen,expected", [
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"e1g1": "O-O", "e1c1": "O-O-O", "a1a8": "Rxa8+"}),
    ("k7/4P3/8/8/8/8/8/K7 w - - 0 1", {"e7e8q": "e8=Q+", "e7e8n": "e8=N"}),
    ("k7/8/8/3pP3/8/8/8/K7 w - d6 0 1", {"e5d6": "exd6"}),
    ("7k/8/8/8/8/8/8/KN3N2 w - - 0 1", {"b1d2": "Nbd2", "f1d2": "Nfd2"}),
    ("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1", {"d1d8": "Rd8#"}),
])
def test_san_examples(fen, expected):
    board = Board("chess", fen)
    assert {m: notation.readable(board, board.parse_move(m)) for m in expected} == expected


def test_ambiguous_or_unknown_text_is_an_error():
    """Two Knights reach d2: `Nd2` names no single move (SAN disambiguates), and reading it fails."""
    board = Board("chess", "7k/8/8/8/8/8/8/KN3N2 w - - 0 1")
    for text in ("Nd2", "Qd2", "zz", ""):
        with pytest.raises(IllegalMoveError):
            notation.read(board, text)
    castle = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert notation.read(castle, "0-0").text == "e1g1" and notation.read(castle, "O-O-O+").text == "e1c1"


def test_fortress_capture_is_written_xx():
    """super16 R7 (the Fortress rule): a capture that removes the capturer too is `xx`."""
    board = Board("super16", "rn1u1bs1k1bafbnr/ppp1p2pip3pp1/3p3a5B1p/6p1p1p5/4f11/16/16/16/16/U15/16/16/"
                             "P5P4F4/1P10B1P1/2PPPSBPPPP1PP1P/RN2A2QKI1AUbNR w KQkq - 0 19")
    move = board.parse_move("n14l16")
    assert notation.readable(board, move) == "Bxxl16"
    assert notation.read(board, "Bxxl16") == move


@pytest.mark.parametrize("fen,machine,text", [
    # a multi-capture names the captured squares off the destination after it
    ("he2bwq1kicb1xzh/H2la1y2yaalfn1/1nxpao2to1e1p1r/4o5f4p/14p1/16/2p4o3o4/7t8/16/16/P5O6N2/8T3E3/"
     "3PLO3O2W1P1/2PO5PO2P1P/2E1AA2QYAA2R1/1ZXFBG1K1I1BF1ZH w p1a16p16 1 40", "a15e15xd15", "Hxe15xd15"),
    # a Berserker's pass: the piece, `@`, its square
    ("hzx1bwsqkicbfxzh/rnelaayggyaalenr/ppppooottooopppp/6f9/16/16/16/16/16/16/10L5/16/16/PPPPOOOTTOOOPPPP/"
     "RNELAAYGGYAA1ENR/HZXFBWSQKICBFXZH w a1p1a16p16 2 2", "n2n2", "E@n2"),
    # a swap with a friendly piece: `~`
    ("hzxfbwsqkicbfxzh/rnelaayggyaalenr/ppppooottooopppp/16/16/16/16/16/16/16/16/16/16/PPPPOOOTTOOOPPPP/"
     "RNELAAYGGYAALENR/HZXFBWSQKICBFXZH w a1p1a16p16 0 1", "f1c2", "W~c2"),
    # a capture without moving that takes a royal: the successor's change is no capture (vanguard)
    ("hex1bws1kicb1xzh/r2la1y2yaalfnr/1n1pao2to1e1p2/4o5f4p/14p1/16/p1p3o1t2o4/16/16/H15/P5O6N2/8T7/"
     "3PL4O1EW1P1/2PO1O1q1PO2P1P/2ENAAYCQYAA3R/1ZXFBGS1KI1BF1ZH w p1a16p16 0 32", "f2f2xh3", "A@f2xh3"),
])
def test_vanguard_forms(fen, machine, text):
    board = Board("vanguard", fen)
    move = board.parse_move(machine)
    assert notation.plain_text(board, move) == text
    assert notation.read(board, text) == move


def test_intergrid_turn_on_one_line():
    """InterGrid: a turn (square move, point move) is one line, its moves joined by `,`; a capture by
    enclosure names the captured cells after the destination."""
    board = Board("intergrid", "2bk1bnr/2p1q1pp/2p5/3pPpP1/1P3P2/4K2N/2P4P/2B2B1R 3r5/2b4b1/1p3p1pp/5p3/"
                               "2p2P1PP/6P2/1BP6/5R3/3r5 w - f6 0 20")
    assert notation.plain_text(board, board.parse_move("g5f6")) == "gf6xf5xF5"
    board = Board("intergrid")
    board.push_turn("e2e4 G1E2")
    assert notation.readable_turns(board) == ["e4,NE2"]  # G1 holds a point Knight
    assert notation.turn_line(["e4", "NE2+", "+"]) == "e4,NE2+"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_record_round_trip_in_both_forms(name):
    """A record exported in the readable notation (and in machine text) reads back to the same moves
    and exports the same text; a turn variant's last turn ends where the text does."""
    board = _random_game(name, "python", 3, PLIES.get(name, 40))
    game = Game(name)
    for move in board.move_stack:
        game.play(move)
    if END_TURN in {m.text for m in game.board.legal_moves}:  # a record holds whole turns
        game.play(END_TURN)
    moves = [m.text for m in game.board.move_stack]
    for readable in (True, False):
        text = game.export(readable=readable)
        again = Game.parse(text)
        assert [m.text for m in again.board.move_stack] == moves
        assert again.export(readable=readable) == text
    assert game.export(readable=True) != game.export()


def test_record_reads_readable_and_machine_words_mixed():
    """A record may mix the forms: machine words of one turn, then readable turns."""
    game = Game.parse('[Variant "intergrid"]\n\n1. e2e4 G1E2 e5,NE6 2. Nf3 *')
    machine = Game.parse('[Variant "intergrid"]\n\n1. e2e4 G1E2 e7e5 G7E6 2. g1f3 *')
    assert [m.text for m in game.board.move_stack] == [m.text for m in machine.board.move_stack]
    assert [m.text for m in game.board.move_stack][:4] == ["e2e4", "G1E2", "e7e5", "G7E6"]


def test_record_with_a_bad_readable_move_is_refused():
    with pytest.raises(ValueError, match="move 3"):
        Game.parse('[Variant "chess"]\n\n1. e4 e5 2. Nd5 *')


def test_tiling_aggregate_is_its_letter_doubled():
    """tiling-rider R6: four like pieces on a unit move as one aggregate (`@c5c11`): `WW`, with `x`
    when it takes pieces anywhere on its destination unit."""
    b = tiling_board({"c5": "W", "c6": "W", "d5": "W", "d6": "W", "c11": "f", "d12": "n", "a6": "g"})
    written = notation.move_texts(b)
    assert (written["@c5c9"], written["@c5c11"], written["@c5a5"]) == ("WWc9", "WWxc11", "WWxa5")
    assert notation.read(b, "WWxc11").text == "@c5c11"
