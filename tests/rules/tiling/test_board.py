"""Tiling Rider Chess through the public Board API (`Board("tilingrider")`, ../shared/rules/tiling-rider.md):
worked examples T1-T10 and rulings as turns of moves + `end`, records, FEN, and a seeded random-play
differential test against the oracle (tests/oracles/tiling.py)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from superchess.rules import Board, IllegalMoveError, Piece, Termination
from superchess.rules.core.turns import END_TURN, TurnSearch
from superchess.rules.game.record import Game
from superchess.rules.tiling.board import BOUND_COST, SEARCH_BUDGET, TilingModel, search_key, turn_rule
from superchess.rules.tiling.position import TilingError
from superchess.rules.tiling.variant import get_tiling_variant
from tests.oracles import tiling as T
from tests.oracles.tiling import random_position
from tests.rules.tiling.helpers import board


def texts(b: Board) -> set[str]:
    return {m.text for m in b.legal_moves}


def dests(b: Board, origin: str) -> set[str]:
    """Destinations of the individual moves of the piece on `origin`."""
    return {m.text[len(origin):] for m in b.legal_moves if m.text.startswith(origin) and m.text[len(origin)].isalpha()}


def agg_dests(b: Board, origin_ll: str) -> set[str]:
    """Destination units of the aggregate on the unit whose lower-left square is `origin_ll`."""
    out = set()
    for m in b.legal_moves:
        if m.text.startswith("@" + origin_ll) and m.text[1 + len(origin_ll)].isalpha():
            out.add(b.unit(m.text[1 + len(origin_ll):])[0])
    return out


def captured(b: Board, text: str) -> dict[str, str]:
    return {name: p.symbol() for name, p in b.captures(b.parse_move(text))}


# =========================================================================== worked examples

def test_t1_geometry():
    b = Board("tilingrider")
    assert [b.tile(n) for n in ("a1", "c1", "i4", "j5", "c6")] == [
        ("a1", "a2"), ("c1", "d1"), ("i4", "j4"), ("j5", "j6"), ("c6", "d6")]
    assert [b.unit(n) for n in ("a1", "c1", "i1", "k1")] == [
        ("a1-b2", "orange"), ("c1-d2", "blue"), ("i1-j2", "orange"), ("k1-l2", "blue")]


def test_t2_ferz():
    assert dests(board({"i4": "F"}), "i4") == {"h3", "h5", "j3", "j5", "h4", "g5", "i3", "j6"}


def test_t3_knight():
    assert dests(board({"d4": "N"}), "d4") == {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5",
                                               "a3", "b6", "d2", "d6", "e1", "e3", "e5", "f6"}


def test_t4_wazir_and_guard():
    assert dests(board({"b4": "W"}), "b4") == {"a4", "b3", "b5", "c4", "a3", "b6", "c3"}
    assert dests(board({"c4": "G"}), "c4") == {"b3", "b4", "b5", "c3", "c5", "d3", "d4", "d5", "a3", "a4", "b6"}


def test_t5_elongation_limits():
    for blocker in "Ff":
        d = dests(board({"i4": "F", "j6": blocker}), "i4")
        assert "j5" in d and "j6" not in d
    b = board({"i4": "F", "j5": "n"})
    assert "j5" in dests(b, "i4") and "j6" not in dests(b, "i4")
    assert captured(b, "i4j5") == {"j5": "n"}
    assert dests(board({"i4": "F", "j5": "W"}), "i4") & {"j5", "j6"} == set()


def test_t6_wazir_aggregate_and_multi_capture():
    b = board({"c5": "W", "c6": "W", "d5": "W", "d6": "W", "h5": "G", "c11": "f", "d12": "n", "a6": "g"})
    assert b.aggregates() == [("c5-d6", Piece("W", 0))]
    assert agg_dests(b, "c5") == {"e5-f6", "a5-b6", "c7-d8", "c9-d10", "c11-d12", "c3-d4", "c1-d2"}
    assert captured(b, "@c5a5") == {"a6": "g"}
    assert captured(b, "@c5c11") == {"c11": "f", "d12": "n"}
    b.push_text("@c5c11")
    assert b.aggregates() == [("c11-d12", Piece("W", 0))]
    assert b.piece_at("d12") == Piece("W", 0) and b.piece_at("c5") is None


def test_t7_knight_aggregate():
    b = board({"e5": "N", "e6": "N", "f5": "N", "f6": "N"})
    assert agg_dests(b, "e5") == {"g9-h10", "i13-j14", "i7-j8", "m9-n10", "q11-r12", "c9-d10", "a13-b14",
                                  "a7-b8", "g1-h2", "i3-j4", "m1-n2", "c1-d2", "a3-b4"}


def test_t8_initial_position():
    b = Board("tilingrider")
    assert b.fen() == T.START_FEN and (b.allowance, b.exact, b.moves_left) == (4, True, 4)
    assert {m.text for m in b.legal_moves if m.text.startswith("i1")} == {"i1k1"}
    assert b.king(0) == "i1" and b.king(1) == "i15"
    assert dests(b, "a4") == {"a5", "a6"}
    assert dests(b, "b4") == {"a5", "a6", "c5", "d5"}
    assert dests(b, "k3") == {"j5", "j6", "l5", "k5", "l1", "k1"}
    assert dests(b, "m2") == {"l2", "k2"}
    assert dests(b, "l3") == {"k2", "l2"}
    assert END_TURN not in texts(b) and b.aggregates() == []


def test_t9_check_single_king_move():
    b = board({"k4": "n"})
    assert b.is_check() and b.is_attacked_by(1, "j2") and not b.is_checkmate()
    assert texts(b) == {"i1g1"}
    b.push_text("i1g1")
    assert texts(b) == {END_TURN}  # the King moves once, nothing else is White's: the turn is that move
    b.push_text(END_TURN)
    assert b.turn == 1 and b.king(0) == "g1" and b.allowance == 2


def test_t10_allowances_through_turns():
    """tiling T10 / R11: White 4 (forced), Black 8 (forced), White 1-9, then one more than the opponent."""
    b = Board("tilingrider")
    b.push_turn("a4a5 c4c5 e4e5 g4g5")
    assert (b.turn, b.allowance, b.exact) == (1, 8, True)
    b.push_turn("a13a12 c13c12 e13e12 g13g12 i13i12 k13k12 m13m12 o13o12")
    assert (b.turn, b.allowance, b.exact, b.fullmove_number) == (0, 9, False, 2)
    for text in ("a5a6", "c5c6", "e5e6", "g5g6", "i4i5"):
        b.push_text(text)
    assert b.moves_left == 4 and END_TURN in texts(b)
    b.push_text(END_TURN)
    assert (b.turn, b.allowance) == (1, 6)
    b.push_turn("a12a11 c12c11")
    assert (b.turn, b.allowance) == (0, 3)


def test_t10_form_then_move():
    b = board({"c5": "W", "d5": "W", "d6": "W", "c7": "W"}, allowance="4")
    b.push_text("c7c6")
    assert b.aggregates() == [("c5-d6", Piece("W", 0))]
    b.push_text("@c5c9")
    assert b.turn_texts() == ["c7c6 @c5c9"] and b.fen().endswith("| c7c6 @c5c9")
    assert texts(b) == {"i1g1", "i1k1", "i1i3", END_TURN}  # none of the four wazirs may move again


# =========================================================================== rulings

def test_r4_king_captures_whole_unit():
    """tiling R4: the giant wazir takes every enemy piece in the unit it enters."""
    b = board({"k1": "f", "l2": "g"})
    assert captured(b, "i1k1") == {"k1": "f", "l2": "g"}
    b.push_text("i1k1")
    assert {n for n, p in b.pieces().items() if p == Piece("K", 0)} == {"k1", "k2", "l1", "l2"}
    assert "i1k1" not in texts(board({"k2": "W"}))


def test_r8_king_squares_attacked_never_targets():
    """tiling R8: no move lands on a King's square, yet those squares are attacked."""
    b = board({"h3": "F", "k3": "N"}, kings=("a1", "i1"))
    assert dests(b, "h3") & {"i2", "j2"} == set() and dests(b, "k3") & {"j1", "i2"} == set()
    assert b.is_attacked_by(0, "i2") and b.is_attacked_by(0, "j1")


def test_r9_continuing_in_check_and_checkmate_over_whole_turns():
    """tiling R9 / 4.2 / 4.3: in check, other moves are allowed if the turn can still end safe;
    with one move allowed and two checkers no legal turn exists: checkmate."""
    pieces = {"a3": "f", "c3": "f", "a4": "W", "c4": "W"}
    b = board(pieces, kings=("a1", "q15"), allowance="2")
    assert b.is_check() and {"c4c3", "a4a3"} <= texts(b) and not b.is_checkmate()
    b.push_text("c4c3")
    assert texts(b) == {"a4a3", "a1c1"}  # take the other checker or step away; `end` is refused
    with pytest.raises(IllegalMoveError):
        b.push_text(END_TURN)
    b.push_text("a4a3")  # the allowance is used up: the turn ends by itself
    assert b.turn == 1 and b.moves_in_turn == 0 and b.turn_texts() == ["c4c3 a4a3"]
    one = board(pieces, kings=("a1", "q15"), allowance="1")
    assert one.legal_moves == [] and one.is_checkmate() and not one.is_stalemate()
    assert one.outcome().termination is Termination.CHECKMATE and one.outcome().winner == 1


def test_r9_no_move_exposes_the_king():
    """tiling R9 / 4.2: unblocking an enemy aggregate's line is refused when not in check."""
    b = board({"i9": "w", "i10": "w", "j9": "w", "j10": "w", "i5": "W"}, kings=("i1", "a15"))
    assert {"i6", "j5", "j6", "i4"} <= dests(b, "i5") and not dests(b, "i5") & {"h5", "h4", "h6", "g5"}


def test_r10_once_per_piece_nothing_after_an_aggregate_move():
    b = board({"c5": "W", "d5": "W", "d6": "W", "c7": "W", "e3": "F"}, allowance="5")
    b.push_text("e3f4")
    assert dests(b, "f4") == set()
    b.push_text("c7c6")
    assert dests(b, "c6") == set() and agg_dests(b, "c5")
    b.push_text("@c5c1")
    assert texts(b) == {"i1g1", "i1i3", "i1k1", END_TURN}  # c1-d2 frozen, f4 moved, King still free


def test_r11_exact_turn_cannot_stop_early():
    b = Board("tilingrider")
    b.push_text("a4a5")
    assert END_TURN not in texts(b) and b.moves_left == 3
    for text in ("c4c5", "e4e5"):
        b.push_text(text)
    b.push_text("g4g5")  # the fourth move ends the turn by itself
    assert b.turn == 1 and b.turn_texts() == ["a4a5 c4c5 e4e5 g4g5"]


def test_r12_undo_within_the_turn():
    """tiling R12: moves of the unfinished turn are taken back one by one; the turn never ends in check."""
    b = board({"c5": "W", "d5": "W", "d6": "W", "c7": "W"}, allowance="3")
    fens, legal = [b.fen()], [b.legal_moves]
    for text in ("c7c6", "@c5c9"):
        b.push_text(text)
        fens.append(b.fen())
        legal.append(b.legal_moves)
    assert b.pop().text == "@c5c9" and b.fen() == fens[1] and b.legal_moves == legal[1]
    assert b.pop().text == "c7c6" and b.fen() == fens[0] and b.legal_moves == legal[0]
    with pytest.raises(IndexError):
        b.pop()


def test_r12_moves_that_lead_nowhere_are_not_offered():
    """tiling R12 with turns.py: a move is offered only if some completion of the turn is legal; a
    turn never ends in check."""
    one = board({"k4": "n", "a5": "W"}, allowance="1")
    assert texts(one) == {"i1g1"}  # the Wazir's moves leave the King in check with no move left
    assert {m.text for m in T.moves_in_turn(T.parse(one.fen()))} > {"i1g1"}
    two = board({"k4": "n", "a5": "W"}, allowance="2")
    assert dests(two, "a5") and "i1g1" in texts(two)
    two.push_text("a5a6")
    assert texts(two) == {"i1g1"}
    two.push_text("i1g1")
    assert two.turn == 1


def test_r13_exact_turn_ends_when_nothing_is_left():
    b = board({"a5": "W"}, allowance="4!", number=1)
    b.push_text("a5a6")
    b.push_text("i1g1")
    assert texts(b) == {END_TURN}
    b.push_text(END_TURN)
    assert (b.turn, b.allowance, b.exact) == (1, 8, True)


def test_r15_stalemate_repetition_and_quiet_turns():
    rooks = {"c11": "w", "c12": "w", "d11": "w", "d12": "w", "k3": "w", "k4": "w", "l3": "w", "l4": "w"}
    s = board(rooks, kings=("a1", "q15"))
    assert s.is_stalemate() and s.outcome().termination is Termination.STALEMATE
    r = board({}, allowance="2")
    for _ in range(2):
        for turn in ("i1g1", "i15g15", "g1i1", "g15i15"):
            assert r.outcome() is None
            r.push_turn(turn)
    assert r.repetition_count() == 3 and r.outcome().termination is Termination.REPETITION
    q = board({}, allowance="2", quiet=99)
    q.push_turn("i1g1")
    assert q.halfmove_clock == 100 and q.outcome().termination is Termination.MOVE_RULE


def test_r16_mid_turn_fen_round_trip():
    """tiling R16 / 1.1: mid-turn the text is the turn's start, ` | ` and the moves so far."""
    b = board({"i4": "F", "c5": "W", "d5": "W", "d6": "W", "c7": "W"}, allowance="3")
    for text in ("i4j6", "c7c6"):
        b.push_text(text)
    assert b.fen().endswith(" w 3 0 5 | i4j6 c7c6")
    again = Board("tilingrider", b.fen())
    assert again.fen() == b.fen() and again.legal_moves == b.legal_moves and again.move_stack == []
    assert again.moves_in_turn == 2 and again.moves_left == 1
    twin = again.copy()
    twin.push_text("@c5c9")  # the turn's last move: it ends by itself
    assert twin.turn == 1 and again.fen() == b.fen() and twin.turn_texts() == ["@c5c9"]


def test_record_writes_turns_and_reimports():
    """tiling 1.1, R16: a record writes each turn as its moves in order; reading it back, a move that
    cannot continue the turn ends it; the start position (after the opening turns) goes in the headers."""
    fen = T.START_FEN.replace(" w 4! 0 1", " w 9 0 2")
    g = Game("tilingrider", fen)
    for text in ("a4a5", "c4c5", END_TURN, "a13a12", END_TURN, "e4e5"):  # 9, then 3, then 2 allowed
        g.play(text)
    record = g.export()
    assert '[FEN "' + fen + '"]' in record and "2. a4a5 c4c5 a13a12 3. e4e5 *" in record
    again = Game.parse(record)
    assert again.board.turn_texts() == g.board.turn_texts() == ["a4a5 c4c5", "a13a12", "e4e5"]
    g.play(END_TURN)  # the record's last turn ends where the text does
    assert again.board.fen() == g.board.fen() and again.board.allowance == 2


def test_bad_texts():
    b = Board("tilingrider")
    for text in ("a4a7", "@a1a3", "end", "x", "i1i3"):
        with pytest.raises(IllegalMoveError):
            b.push_text(text)
    for bad in ("18/18 w 4! 0 1", T.START_FEN + " | z9z9", T.START_FEN.replace("4!", "0")):
        with pytest.raises(ValueError):
            Board("tilingrider", bad)


def test_r11_position_text_allowance_is_one_a_game_reaches():
    """tiling 4.1, R11: a position text's allowance is one a game can reach: 4! for White and 8! for
    Black (the first turns), otherwise 1 to one more than the most moves a turn can hold (each of 64
    small pieces alone, 16 aggregate moves, the King: 81). Anything else is a FenError (TilingError)
    at once, before any legal-move listing."""
    at_turn_3 = T.START_FEN.replace(" w 4! 0 1", " w {} 0 3")
    assert Board("tilingrider", at_turn_3.format("82")).allowance == 82
    assert Board("tilingrider", T.START_FEN.replace(" w 4! ", " b 8! ")).exact
    for allowance in ("83", "2000000", "99999999999999999999", "8!", "9!", "4!!", "0", "-1", "\u00b2"):
        with pytest.raises(TilingError, match="allowance"):
            Board("tilingrider", at_turn_3.format(allowance))
    with pytest.raises(TilingError, match="exact allowance"):
        Board("tilingrider", T.START_FEN.replace(" w 4! ", " b 4! "))


class CountingModel(TilingModel):
    """The board's turn model, counting its work: moves played and escape-bound tests."""

    def __init__(self) -> None:
        self.work = 0

    def play(self, pos, move):
        self.work += 1
        return super().play(pos, move)

    def out_of_reach(self, pos, moves_left):
        self.work += 1
        return super().out_of_reach(pos, moves_left)


#: White's King (a1-b2) in check from the Knight on c4 and boxed in (a3 and d2 attacked): only the
#: Wazir's capture c5c4 parries, now or after one move of the far Ferz or Guard.
CORNERED = "8kk8/8kk8/18/18/15G2/18/17F/18/18/18/18/2W15/2n15/18/KK16/KK16 w 9 0 5"


def test_turn_search_work_does_not_grow_with_the_allowance():
    """turns.TurnSearch, tiling 4.1, 4.2: the search's work and answers are the same with an allowance
    of 2,000,000 (set on the position: the text refuses it) as with the largest a game reaches. The
    Wazir's other moves lead nowhere however many moves follow (it cannot move twice), which the
    search learns once instead of again in every deeper round (it used to run out of its budget and
    then offer them, undecided)."""
    def search(allowance: int) -> tuple[list[str], bool, list[str] | None, int]:
        pos = Board("tilingrider", CORNERED).position
        pos.allowance = allowance
        pos.hash = pos.rehash()
        model = CountingModel()
        turn = TurnSearch(turn_rule(pos), model, search_key, SEARCH_BUDGET, BOUND_COST)
        moves, may_end = turn.continuations(pos, 0, 0)
        pos.make(next(m for m in pos.legal() if pos.move_text(m) == "c5d5"))
        completion, _ = turn.completion(pos, 1, 0)
        return sorted(pos.move_text(m) for m in moves), may_end, completion, model.work

    reachable = search(get_tiling_variant("tilingrider").max_allowance)
    assert reachable[:3] == (sorted(["c5c4", "r10q9", "r10q10", "r10q11", "r10r11"] + [
        "p12" + to for to in ("o11", "o12", "o13", "p11", "p13", "q11", "q12", "q13", "q14", "r11", "r12")]),
        False, None)
    assert search(2_000_000) == reachable


# =========================================================================== differential, properties

def _check_against_reference(b: Board, state: T.State) -> None:
    """The board's legal moves are the reference's moves that start a legal turn completion; `end`
    is offered exactly when the reference may end the turn; the same position text. Not in check,
    every reference move completes (4.2: no move may then expose the King, R13 ends a stuck exact
    turn); in check, the reference's whole-turn search decides."""
    assert b.fen() == T.text(state)
    offered = texts(b)
    assert (END_TURN in offered) == T.can_end_turn(state)
    reference = T.moves_in_turn(state)
    if not T.is_check(state):
        assert offered - {END_TURN} == {m.text for m in reference}
        return
    for m in reference:
        assert (m.text in offered) == (T.legal_turn(T._apply(state, m), budget=20_000) is not None), m.text
    assert offered - {END_TURN} <= {m.text for m in reference}


@pytest.mark.parametrize("seed", range(2))
def test_random_play_matches_reference(seed):
    """Seeded random play from the start: same legal moves, same positions; each move text parses
    back to its move; every completed turn leaves the mover's King safe (4.2)."""
    rng = random.Random(seed)
    b = Board("tilingrider")
    state = T.start()
    for _ in range(18):
        _check_against_reference(b, state)
        legal = b.legal_moves
        if not legal:
            break
        mv = rng.choice(legal)
        assert b.parse_move(mv.text) == mv
        mover = b.turn
        b.push(mv)
        state = T.end_turn(state) if mv.text == END_TURN else T.play(state, mv.text)
        if len(state.made) == state.allowance:
            state = T.end_turn(state)
        if b.turn != mover:
            assert not T.is_check(T.parse(b.fen()), mover)
    _check_against_reference(b, state)


def test_random_positions_match_reference_turns_end_safe_pop_restores():
    """Random positions (checks included): the differential check at each move; random legal moves
    until the turn ends leave the mover's King safe (4.2); the FEN rebuilds each mid-turn position;
    pop restores every earlier one."""
    rng = random.Random(100)
    checks = 0
    for _ in range(30):
        state = random_position(rng)
        b = Board("tilingrider", T.text(state))
        mover, fens = b.turn, []
        while b.turn == mover and b.legal_moves:
            _check_against_reference(b, state)
            checks += b.is_check()
            fens.append(b.fen())
            mv = rng.choice(b.legal_moves)
            b.push(mv)
            state = T.end_turn(state) if mv.text == END_TURN else T.play(state, mv.text)
            if len(state.made) == state.allowance:
                state = T.end_turn(state)
            again = Board("tilingrider", b.fen())
            assert again.legal_moves == b.legal_moves
        if b.turn != mover:
            assert not T.is_check(T.parse(b.fen()), mover)
        else:
            assert b.is_checkmate() or b.is_stalemate()
        while fens:
            b.pop()
            assert b.fen() == fens.pop()
    assert checks  # the seeds reach positions in check


def test_undecided_search_offers_the_move_and_declares_no_mate():
    """turns.TurnSearch budget / tiling R12, 4.3: with no states left to visit, a move counts as
    completable (the player may take it back), so a position is never mate on an unfinished search."""
    rooks = {"a7": "w", "a8": "w", "b7": "w", "b8": "w", "c9": "w", "c10": "w", "d9": "w", "d10": "w"}
    mate = board({**rooks, "q5": "W", "o5": "W"}, kings=("a1", "q15"), allowance="2")  # Wazirs too far to help
    assert mate.is_checkmate() and mate.outcome().termination is Termination.CHECKMATE
    pos = mate.position
    undecided = TurnSearch(turn_rule(pos), TilingModel(), search_key, 0)
    moves, may_end = undecided.continuations(pos, 0, 0)
    reference = sorted(m.text for m in T.moves_in_turn(T.parse(mate.fen())))
    assert sorted(pos.move_text(m) for m in moves) == reference != [] and not may_end


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9))
def test_any_turn_ends_with_the_movers_king_safe(seed):
    """tiling 4.2, R12: in random positions, random legal moves until the turn passes leave the mover's
    King safe; mid-turn FEN rebuilds the position and its legal moves; pop restores every earlier FEN."""
    rng = random.Random(seed)
    b = Board("tilingrider", T.text(random_position(rng)))
    mover, fens = b.turn, []
    while b.turn == mover and b.legal_moves:
        fens.append(b.fen())
        b.push(rng.choice(b.legal_moves))
        again = Board("tilingrider", b.fen())
        assert again.fen() == b.fen() and again.legal_moves == b.legal_moves
    if b.turn != mover:
        assert not T.is_check(T.parse(b.fen()), mover)
    while fens:
        b.pop()
        assert b.fen() == fens.pop()
