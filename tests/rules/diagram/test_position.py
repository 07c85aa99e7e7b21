"""Vanguard and pasted diagrams on the hot core (issue 7): `DiagramCorePosition` (core Position and
Tables, integer moves) against the earlier stand-alone implementation, the oracle: the same legal
move texts (R21) in every position of seeded random games, the same position texts (1.1: unmoved
rights R11, promotion R12, succession R16/R17) after every move, an incremental hash equal to the
one computed from scratch, unmake back to the start, and perft agreement. The oracle is
tests/oracles/diagram.py."""
from __future__ import annotations

import random

import pytest

from superchess.rules.core.encoding import MULTI
from superchess.rules.diagram.fen import get_fen, set_fen
from superchess.rules.diagram.position import DiagramCorePosition
from superchess.rules.diagram.variant import DiagramVariant, get_diagram_variant, rules_from_diagram
from tests.oracles.diagram import DiagramPosition
from tests.rules.diagram.helpers import ORTHODOX, TINY


def _text(rules: DiagramVariant, o: int, d: int, caps: tuple[int, ...]) -> str:
    name = rules.geometry.name
    return name(o) + name(d) + "".join("x" + name(c) for c in caps if c != d)


def core_moves(pos: DiagramCorePosition) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in pos.legal():
        o, d, caps, _ = pos.record(m)
        out.setdefault(_text(pos.rules, o, d, caps), m)
    return out


def oracle_moves(pos: DiagramPosition) -> dict[str, tuple]:
    out: dict[str, tuple] = {}
    for m in pos.legal():
        out.setdefault(_text(pos.rules, m[0], m[1], m[2]), m)
    return out


def _pair(rules: DiagramVariant, fen: str | None = None) -> tuple[DiagramCorePosition, DiagramPosition]:
    core, oracle = DiagramCorePosition(rules), DiagramPosition(rules)
    set_fen(core, fen or rules.start_fen)
    set_fen(oracle, fen or rules.start_fen)
    return core, oracle


def _play_and_compare(rules: DiagramVariant, seed: int, plies: int) -> int:
    """Random game (captures preferred, so pieces meet); returns the number of special moves."""
    rng = random.Random(seed)
    core, oracle = _pair(rules)
    specials = 0
    for _ in range(plies):
        ours, theirs = core_moves(core), oracle_moves(oracle)
        assert set(ours) == set(theirs), get_fen(oracle)
        assert {t: core.record(m)[3] for t, m in ours.items()} == {t: m[3] for t, m in theirs.items()}
        assert core.in_check() == oracle.in_check()
        if not ours:
            break
        texts = sorted(ours)
        captures = [t for t in texts if theirs[t][2]]
        text = rng.choice(captures) if captures and rng.random() < 0.6 else rng.choice(texts)
        specials += bool(ours[text] & MULTI)
        core.make(ours[text])
        oracle.make(theirs[text])
        assert get_fen(core) == get_fen(oracle), text
        h = core.hash
        assert core.rehash() == h
    while core.stack:
        core.unmake()
    assert get_fen(core) == rules.start_fen
    return specials


@pytest.mark.parametrize("seed", range(6))
def test_vanguard_random_games_match_the_oracle(seed):
    specials = _play_and_compare(get_diagram_variant("vanguard"), seed, 120)
    assert specials > 0  # multi-capture, igui, rifle, pass or swap moves were played


@pytest.mark.parametrize("line", [ORTHODOX, TINY])
def test_pasted_diagrams_match_the_oracle(line):
    rules = rules_from_diagram(line, "pasted")
    for seed in range(3):
        _play_and_compare(rules, seed, 60)


def _perft(pos, depth: int) -> int:
    moves = pos.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        pos.make(m)
        total += _perft(pos, depth - 1)
        pos.unmake()
    return total


def _middlegame(rules: DiagramVariant, seed: int, plies: int) -> str:
    rng = random.Random(seed)
    oracle = DiagramPosition(rules)
    set_fen(oracle, rules.start_fen)
    for _ in range(plies):
        oracle.make(rng.choice(sorted(oracle.legal())))
    return get_fen(oracle)


@pytest.mark.parametrize("plies", [0, 20, 40])
def test_perft_2_agrees_with_the_oracle(plies):
    rules = get_diagram_variant("vanguard")
    core, oracle = _pair(rules, _middlegame(rules, 11, plies))
    assert _perft(core, 2) == _perft(oracle, 2)


@pytest.mark.parametrize("seed", range(3))
def test_pseudo_captures_are_the_capturing_pseudo_legal_moves(seed):
    """Quiescence's generator: exactly the pseudo-legal moves that take an enemy piece (R18:
    locust, igui, rifle and run captures included), in random middlegames."""
    rules = get_diagram_variant("vanguard")
    core = DiagramCorePosition(rules)
    set_fen(core, _middlegame(rules, seed, 40))
    for _ in range(2):
        expected = {m for m in core.pseudo_legal() if core.record(m)[2]}
        assert set(core.pseudo_captures()) == expected and expected
        core.make(core.legal()[0])


@pytest.mark.parametrize("seed", range(3))
def test_attack_agrees_with_the_oracle_on_every_cell(seed):
    """4.2, R18: every empty cell and every piece of the other side, for both sides, in random
    middlegames (rifle, igui, locust and run captures count; an empty cell as if an enemy stood
    there)."""
    rules = get_diagram_variant("vanguard")
    core, oracle = _pair(rules, _middlegame(rules, 100 + seed, 50))
    for by in (0, 1):
        cells = [c for c in range(rules.files * rules.ranks) if not core.board[c] or c in core.occ[by ^ 1]]
        assert [core.is_attacked(c, by) for c in cells] == [oracle.is_attacked(c, by) for c in cells]
        assert any(core.is_attacked(c, by) for c in cells)


def test_the_registry_holds_vanguard_as_a_core_variant():
    """`get_variant("vanguard")` is the core `Variant` the board plays on: RectGeometry 16x16, no
    castling, no en passant, the King checkable, the Prince royal but not, pawn types (R12, R13)."""
    from superchess.rules import Board, get_variant
    variant = get_variant("vanguard")
    assert Board("vanguard")._pos.variant is variant
    assert (variant.geometry.files, variant.geometry.ranks) == (16, 16)
    assert variant.castling == [] and not variant.en_passant
    flags = {p.letter: (p.checkable, p.royal, p.pawn) for p in variant.pieces}
    assert flags["K"] == (True, True, False) and flags["I"] == (False, True, False)
    assert {letter for letter, f in flags.items() if f[2]} == {"P", "O", "T"}
