"""InterGrid on the core's representation (../shared/rules/intergrid.md): the two-lattice geometry
(1, R1), barriers per step (3.1-3.3, R2, R3), the enclosure hook (4, R4-R6), make/unmake of cell
changes, the end-of-turn attack test (5, R7), cursors, and a seeded differential test against the
oracle (tests/oracles/intergrid.py) at the level of the position: pseudo-legal
moves of each turn part, the attack on every square for both sides, and the position text."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from superchess.rules.core.cursor import Cursor
from superchess.rules.intergrid.board import move_text
from superchess.rules.intergrid.fen import intergrid_fen, parse_intergrid_fen
from superchess.rules.intergrid.geometry import POINTS, SQUARES
from superchess.rules.intergrid.position import IntergridPosition
from superchess.rules.intergrid.variant import get_intergrid_variant
from tests.oracles import intergrid as ig
from tests.rules.helpers import occupied_by_side

GEO = get_intergrid_variant("intergrid").geometry


def names(cells) -> set[str]:
    return {GEO.name(c) for c in cells}


def core(pieces: dict[str, str], side: str = "w") -> IntergridPosition:
    return parse_intergrid_fen(ig.fen(ig.position(pieces, side, "-")))


def play(p: IntergridPosition, text: str) -> None:
    p.make(next(m for m in p.moves() if move_text(m) == text))


# =========================================================================== geometry (1, R1)

def test_r1_names_and_the_relation_between_the_lattices():
    """intergrid 1, R1: Xn is the upper-left corner of xn; d3's corners; a point's 1, 2 or 4 squares."""
    assert len(GEO.names) == 64 + 81 and GEO.names[64] == "A0" and GEO.names[-1] == "I8"
    assert names(GEO.corners[GEO.parse_cell("a1")]) == {"A0", "B0", "A1", "B1"}
    assert names(GEO.corners[GEO.parse_cell("d3")]) == {"D2", "E2", "D3", "E3"}
    assert [len(GEO.around[GEO.parse_cell(n)]) for n in ("A0", "A4", "E4")] == [1, 2, 4]
    assert sum(GEO.is_edge(c) for c in range(GEO.size)) == 32


@pytest.mark.parametrize("origin, step, barrier", [
    ("a3", (1, 0), {"B2", "B3"}),  # 3.1: a3->b3 crosses B2-B3
    ("a3", (0, -1), {"A2", "B2"}),  # 3.1: a3->a2 crosses A2-B2
    ("a3", (1, 1), {"B3"}),  # 3.1: a diagonal step passes the common corner
    ("C2", (1, 0), {"c2", "c3"}),  # 3.2 / I2: segment C2-D2 borders c2 and c3
    ("A2", (0, -1), {"a2"}),  # R2: an edge segment has one bordering square
    ("D3", (-1, -1), {"c3"}),  # 3.2: a diagonal point step crosses a square
])
def test_barriers_of_unit_steps(origin, step, barrier):
    """intergrid 3.1, 3.2, R2: the other-layer cells that bar a step when all are occupied."""
    assert names(GEO.barrier(GEO.parse_cell(origin), *step)) == barrier


def test_knight_leaps_have_no_barrier():
    """intergrid 3.3: Knights of both layers are never blocked."""
    assert GEO.barrier(GEO.parse_cell("b1"), 1, 2) is None
    p = core({"B1": "N", "b1": "p", "a1": "p", "a2": "p", "b2": "p", "c1": "p", "c2": "p", "h8": "k", "h5": "K"})
    p.make(next(m for m in p.moves()))  # White's square move (the King), then the point Knight
    assert {move_text(m) for m in p.moves()} == {"B1A3", "B1C3", "B1D0", "B1D2"}


# =========================================================================== capture (4)

def test_i4_one_move_removes_the_displaced_and_the_enclosed():
    """intergrid I4, 4.5: displacement plus enclosure as one list of cell changes."""
    p = core({"b2": "Q", "e3": "R", "d2": "n", "E2": "b", "h8": "k", "h5": "K"})
    m = next(m for m in p.moves() if move_text(m) == "b2d2")
    assert {(GEO.name(c), before != 0, after != 0) for c, before, after in p.changes(m)} == \
        {("b2", True, False), ("d2", True, True), ("E2", True, False)}


def test_i6_point_arrival_encloses_two_squares_and_r4_no_passive_capture():
    """intergrid I6, 4.2 (several enclosures by one move); R4: the arriving piece is never taken."""
    p = core({"E2": "N", "B0": "Q", "B2": "P", "b2": "p", "b1": "b", "a1": "r", "h8": "k", "h5": "K"})
    play(p, "h5h4")
    play(p, "E2C1")
    assert p.board[GEO.parse_cell("b2")] == 0 and p.board[GEO.parse_cell("b1")] == 0
    q = core({"d2": "Q", "e3": "R", "D3": "b", "h8": "k", "h5": "K"}, side="b")
    play(q, "h8h7")
    play(q, "D3E2")
    assert q.board[GEO.parse_cell("E2")] != 0


def test_r5_edge_rule_takes_point_pieces_only():
    """intergrid 4.4, R5, I5: a square-piece arriving next to an enemy edge point removes it alone;
    a square-piece on the edge is not removed by one point-piece."""
    p = core({"b6": "N", "A4": "p", "h8": "k", "h5": "K"})
    play(p, "b6a4")
    assert p.board[GEO.parse_cell("A4")] == 0
    q = core({"a4": "N", "h8": "k", "h5": "K", "C6": "q"}, side="b")
    play(q, "h8h7")
    play(q, "C6B5")  # B5 is a corner of a4 (an edge square): no partner on A4, nothing taken
    assert q.board[GEO.parse_cell("a4")] != 0


def test_make_unmake_restores_everything():
    """Cell-change make/unmake: board, occupancy, Kings, rights, en passant, clocks and hash."""
    p = parse_intergrid_fen(ig.START_FEN)
    before = (list(p.board), [set(s) for s in p.occ], list(p.kings), p.castling, list(p.ep), p.hash,
              p.halfmove, p.fullmove, p.side, p.phase)
    for text in ("e2e4", "G1E2"):
        play(p, text)
    p.end_turn()
    assert p.side == 1 and p.rehash() == p.hash
    for _ in range(3):
        p.unmake()
    assert before == (p.board, p.occ, p.kings, p.castling, p.ep, p.hash, p.halfmove, p.fullmove,
                      p.side, p.phase)


# =========================================================================== attack (5, R7)

def test_i7_attack_by_enclosure_across_layers():
    """intergrid I7, 5: with d3 empty the Bishop could go D3-E2-F1 and enclose e1 with E0."""
    p = core({"d3": "P", "e1": "K", "D3": "b", "E0": "q", "h8": "k"})
    assert not p.king_attacked(0)
    play(p, "d3d4")
    p.end_turn()
    assert p.king_attacked(0)


def test_a_quiet_point_pawn_step_to_a_corner_attacks():
    """intergrid 5, R6: E6-E5 (a pawn's non-capturing step) would enclose e5 with F4."""
    p = core({"e5": "K", "E6": "p", "F4": "p", "a8": "k"})
    assert p.attacked(GEO.parse_cell("e5"), 1)
    q = core({"e5": "K", "F4": "p", "a8": "k"})
    assert not q.attacked(GEO.parse_cell("e5"), 1)


# =========================================================================== cursors

def test_cursor_unmakes_down_to_itself_and_detects_a_stale_one():
    p = parse_intergrid_fen(ig.START_FEN)
    root = Cursor(p)
    play(p, "e2e4")
    after = Cursor(p)
    play(p, "G1E2")
    assert after.view(lambda q: q.phase) == 1 and p.phase == 2
    assert root.view(intergrid_fen) == ig.START_FEN and p.phase == 2  # later moves kept
    assert root.get() is p and not p.stack
    play(p, "d2d4")
    with pytest.raises(RuntimeError):
        after.get()


# =========================================================================== differential

def _texts(p: IntergridPosition) -> list[str]:
    return sorted(move_text(m) for m in p.moves())


def _attacks(p: IntergridPosition) -> list[tuple[int, int]]:
    return [(s, by) for s in range(GEO.point_base) for by in (0, 1) if p.attacked(s, by)]


def _ref_attacks(state: ig.State) -> list[tuple[int, int]]:
    return [(s, by) for s in range(64) for by in (0, 1) if ig.square_attacked(state, s, "wb"[by])]


def _assert_cell_state(p: IntergridPosition) -> None:
    """The CellPosition state follows the cells: each side's occupied cells, the Kings' cells."""
    assert p.occ == occupied_by_side(p.board)
    assert p.kings == [p.board.index(code) if code in p.board else -1 for code in p.tables.king_code]


@pytest.mark.parametrize("seed", range(6))
def test_position_matches_reference_in_random_games(seed):
    """Seeded random games: at every step the core's pseudo-legal moves of each turn part, the
    attacked squares for both sides (5) and the position text equal the reference's."""
    rng = random.Random(seed)
    state = ig.start()
    p = parse_intergrid_fen(ig.START_FEN)
    for _ in range(60):
        assert _texts(p) == sorted(m.text() for m in ig.square_moves(state))
        assert _attacks(p) == _ref_attacks(state)
        turns = list(ig.legal_turns(state))
        if not turns:
            break
        turn = rng.choice(turns)
        mid = ig.apply_square(state, turn.square).state
        play(p, turn.square.text())
        assert _texts(p) == sorted(m.text() for m in ig.point_moves(mid))
        assert _attacks(p) == _ref_attacks(mid)
        if turn.point:
            play(p, turn.point.text())
        p.end_turn()
        state = ig.apply_point(mid, turn.point).state
        assert intergrid_fen(p) == ig.fen(state) and p.rehash() == p.hash
        _assert_cell_state(p)
        if state.king("w") is None or state.king("b") is None:
            break
    while p.stack:
        p.unmake()
    assert intergrid_fen(p) == ig.START_FEN
    _assert_cell_state(p)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 30))
def test_hash_is_the_hash_of_the_position_reached(seed, turns):
    """Incremental Zobrist: equal to the hash computed from scratch after any random line, and
    equal for the same position reached through its text."""
    rng = random.Random(seed)
    p = parse_intergrid_fen(ig.START_FEN)
    for _ in range(turns):
        moves = p.moves()
        if not moves or min(p.kings) < 0:
            break
        p.make(rng.choice(moves))
        point = p.moves()
        if point and rng.random() < 0.8:
            p.make(rng.choice(point))
        p.end_turn()
        assert p.hash == p.rehash()
    assert parse_intergrid_fen(intergrid_fen(p)).hash == p.hash


def test_layers_of_the_piece_types_are_data():
    """intergrid 2: no point King; the square King is the checkable piece (5)."""
    v = get_intergrid_variant("intergrid")
    square_letters = [pt.letter for pt, layer in zip(v.pieces, v.layers) if layer == SQUARES]
    point_letters = [pt.letter for pt, layer in zip(v.pieces, v.layers) if layer == POINTS]
    assert square_letters == list("KQRBNP") and point_letters == list("QRBNP")
    with pytest.raises(ValueError):
        parse_intergrid_fen(ig.START_FEN.replace("1NBRQRNB1", "1NBRKRNB1"))


# =========================================================================== properties (Board)

@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 25))
def test_no_legal_turn_ends_with_the_movers_king_attacked(seed, turns):
    """intergrid 5, R7: every turn the board accepts ends with the mover's King unattacked (or the
    enemy King taken); every legal move's text parses back to it (1.1)."""
    from superchess.rules import Board
    rng = random.Random(seed)
    b = Board("intergrid")
    for _ in range(turns):
        if b.outcome() is not None:
            break
        mover = b.turn
        while b.turn == mover:
            legal = b.legal_moves
            assert all(b.parse_move(mv.text) == mv for mv in legal)
            b.push(rng.choice(legal))
        king = b.king(mover)
        assert b.king(1 - mover) is None or not b.is_attacked_by(1 - mover, king)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_board_on_one_position_agrees_with_a_replay_after_any_push_pop_sequence(seed):
    """Cursors: pushes, pops (within a turn too, R8), listings, captures and mid-turn texts on one
    make/unmake position leave the board where a fresh replay of its moves is."""
    from superchess.rules import Board
    rng = random.Random(seed)
    b = Board("intergrid")
    for _ in range(40):
        legal = b.legal_moves
        if legal and (not b.move_stack or rng.random() < 0.7):
            mv = rng.choice(legal)
            b.captures(mv)
            b.push(mv)
        else:
            b.pop()
        if rng.random() < 0.3:
            replay = Board("intergrid")
            for mv in b.move_stack:
                replay.push(mv)
            assert (b.fen(), [m.text for m in b.legal_moves], b.pieces()) == \
                (replay.fen(), [m.text for m in replay.legal_moves], replay.pieces())
            assert Board("intergrid", b.fen()).fen() == b.fen()


def test_castling_rights_without_their_pieces_lapse_with_the_first_move():
    """intergrid 3.5 (as the reference keeps rights): a text may name a right whose King or Rook is
    not at home; it is kept in the text until the first move, then dropped."""
    text = ig.fen(ig.position({"e1": "K", "h1": "R", "a1": "R", "h8": "k"}, "w", "KQ"))
    p = parse_intergrid_fen(text)
    assert intergrid_fen(p) == text
    play(p, "h1h2")
    p.end_turn()
    state = ig.apply(ig.parse_fen(text), ig.parse_turn(ig.parse_fen(text), "h1h2"))
    assert intergrid_fen(p) == ig.fen(state) and " w - " not in intergrid_fen(p) and " b - " in intergrid_fen(p)
