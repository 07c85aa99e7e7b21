"""Which rules core a board plays on (issue 20): SUPERCHESS_CORE=python|native, the default
(native where it is built), a clear error when native is asked for and missing, the Python core
with a one-line warning when the extension was not built."""
from __future__ import annotations

import pytest

from superchess.rules import Board
from superchess.rules.core import native

needs_native = pytest.mark.skipif(not native.available(), reason="the native core is not built")


@pytest.mark.parametrize("variant", ["chess", "super16", "superchess", "vanguard"])
def test_the_environment_picks_the_core(monkeypatch, variant):
    monkeypatch.setenv(native.CORE_ENV, "python")
    assert Board(variant).core == "python"
    if native.available():
        monkeypatch.setenv(native.CORE_ENV, "native")
        assert Board(variant).core == "native"
        monkeypatch.delenv(native.CORE_ENV)
        assert Board(variant).core == "native"  # the default where it is built


def test_a_bad_core_name_is_refused(monkeypatch):
    monkeypatch.setenv(native.CORE_ENV, "fast")
    with pytest.raises(ValueError, match="SUPERCHESS_CORE must be 'python' or 'native'"):
        Board("chess")
    with pytest.raises(ValueError, match="core must be"):
        Board("chess", core="fast")


def test_without_the_extension_native_fails_clearly_and_the_default_warns_once(monkeypatch, capsys):
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setattr(native, "_MISSING", "No module named 'superchess._native'")
    monkeypatch.setattr(native, "_warned", False)
    monkeypatch.setenv(native.CORE_ENV, "native")
    with pytest.raises(native.CoreUnavailableError, match="not built"):
        Board("chess")
    monkeypatch.delenv(native.CORE_ENV)
    assert Board("chess").core == "python"
    assert Board("super16").core == "python"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not built" in err and "running on the Python core" in err  # one line, once


def test_turn_variants_stay_on_their_own_boards(monkeypatch):
    monkeypatch.setenv(native.CORE_ENV, "native" if native.available() else "python")
    for variant in ("intergrid", "tilingrider"):
        board = Board(variant)
        assert type(board).__name__ != "Board" and board.legal_moves


@needs_native
def test_a_copy_keeps_the_core():
    board = Board("chess", core="native")
    board.push_text("e2e4")
    copy = board.copy()
    assert copy.core == "native" and copy.fen() == board.fen() and copy.repetition_count() == 1
