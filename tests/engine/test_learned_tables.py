"""Learned table corrections (engine/learned_tables.py): loaded for their variant, validated."""
from __future__ import annotations

import pytest

from superchess import _native
from superchess.engine import learned_tables, native_search
from superchess.engine.evaluate import Evaluator
from superchess.rules import Board, Roster
from superchess.rules.core.variant import load_variant

STANDARD = (Roster(), Roster())
E4 = 4 + 3 * 8


def chess_file(tmp_path, monkeypatch, pawn_e4: int) -> None:
    """A chess table file in a temporary tables folder: `pawn_e4` on a Pawn at e4, nothing else."""
    chess = load_variant("chess")
    cells = chess.geometry.size
    pawn = [pawn_e4 if c == E4 else 0 for c in range(cells)]
    monkeypatch.setattr(learned_tables, "TABLES_DIR", tmp_path)
    (tmp_path / "chess.toml").write_text(learned_tables.dumps({"P": (pawn, pawn)}, chess.geometry, "test"))


def python_and_native(fen: str, variant: str = "chess") -> tuple[int, int]:
    """A fresh evaluator's static evaluation of `fen`, by the Python and the native evaluation."""
    board = Board(variant, fen)
    ev = Evaluator(variant, STANDARD)
    pos = board.engine_position()
    native = _native.Searcher(1).evaluate(board.native_position()[0], native_search.evaluation(ev))[0]
    return ev.evaluate(pos, ev.packed(pos)), native


@pytest.mark.parametrize("fen, toward", [
    ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", 1),    # Player 1's Pawn on e4
    ("4k3/8/8/4p3/8/8/8/4K3 w - - 0 1", -1),   # Player 2's on e5: e4 mirrored, against Player 1
])
def test_the_learned_file_moves_chess_evaluation_by_its_data(tmp_path, monkeypatch, fen, toward):
    monkeypatch.setattr(learned_tables, "TABLES_DIR", tmp_path)  # no file yet
    before = python_and_native(fen)
    chess_file(tmp_path, monkeypatch, pawn_e4=37)
    after = python_and_native(fen)
    assert [a - b for a, b in zip(after, before)] == [toward * 37, toward * 37]


def test_other_variants_keep_their_tables(tmp_path, monkeypatch):
    monkeypatch.setattr(learned_tables, "TABLES_DIR", tmp_path)
    before = Evaluator("super16", STANDARD).pst
    chess_file(tmp_path, monkeypatch, pawn_e4=37)
    assert Evaluator("super16", STANDARD).pst == before
    assert Evaluator("chess", STANDARD, learned=False).pst != Evaluator("chess", STANDARD).pst


@pytest.mark.parametrize("text, message", [
    ("[X]\nmg = []\neg = []\n", "'X' is not a piece of chess"),
    ("[P]\nmg = [0, 0]\neg = [0, 0]\n", "mg must list 64 cells, not 2"),
    ("[P]\nmg = [0]\n", "exactly `mg` and `eg`"),
])
def test_a_malformed_file_is_refused_with_its_fault(tmp_path, monkeypatch, text, message):
    monkeypatch.setattr(learned_tables, "TABLES_DIR", tmp_path)
    (tmp_path / "chess.toml").write_text(text)
    with pytest.raises(ValueError, match=message):
        Evaluator("chess", STANDARD)


@pytest.mark.parametrize("path", sorted(learned_tables.TABLES_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_shipped_table_files_are_valid(path):
    assert learned_tables.load(load_variant(path.stem))
