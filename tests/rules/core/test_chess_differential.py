"""Differential tests: the orthodox "chess" variant must agree with python-chess move for move.

Three parts:

* perft on the standard suite (start position, Kiwipete, positions 3-6 of the Chess Programming
  Wiki suite) plus a few classic edge-case positions; the expected counts are computed here by
  python-chess on the same FEN and depth, never hard-coded. A mismatch reports a divide and walks
  down to the first position whose move lists differ.
* seeded random games, compared position by position: legal moves, check and game-end verdicts,
  draw claims, the outcome, FEN, and the repetition identity of the Zobrist hash.
* push/pop through the public API: popping back to the start restores every FEN and hash.

Deeper perft runs are marked `slow` (run with `-m slow`).
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

chess = pytest.importorskip("chess")

from superchess.rules import Board, Termination  # noqa: E402
from superchess.rules import get_variant  # noqa: E402
from superchess.rules.core.fen import get_fen, set_fen  # noqa: E402
from superchess.rules.core.native import core_position  # noqa: E402
from superchess.rules.core.position import Position  # noqa: E402
from tests.oracles.chess_perft import KIWIPETE, POS3, POS4, POS4_MIRRORED, POS5, POS6, START, ref_perft  # noqa: E402

# (name, FEN, depth): about 1.5M leaves in all, a few seconds for both move generators.
SUITE = [
    ("start", START, 4),
    ("kiwipete", KIWIPETE, 3),
    ("pos3", POS3, 5),
    ("pos4", POS4, 4),
    ("pos4-mirrored", POS4_MIRRORED, 4),
    ("pos5", POS5, 3),
    ("pos6", POS6, 3),
]
# The same positions one ply deeper (minutes, mostly in python-chess): `pytest -m slow`.
SUITE_DEEP = [
    ("start", START, 5),
    ("kiwipete", KIWIPETE, 4),
    ("pos3", POS3, 6),
    ("pos4", POS4, 5),
    ("pos5", POS5, 4),
    ("pos6", POS6, 4),
]
# Classic move-generator traps (en passant pins and discovered checks, castling through or into
# check, promotions with check, stalemate and double check).
EDGE_CASES = [
    ("ep-illegal-1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 4),
    ("ep-illegal-2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 4),
    ("ep-gives-check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 4),
    ("ep-horizontal-pin", "8/8/8/KPp4r/8/8/8/7k w - c6 0 1", 5),
    ("short-castle-check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", 5),
    ("long-castle-check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 5),
    ("castle-rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 3),
    ("castle-prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 3),
    ("promote-out-of-check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 4),
    ("discovered-check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 4),
    ("promote-give-check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 5),
    ("underpromote-check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 5),
    ("self-stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6),
    ("stalemate-checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 5),
    ("double-check", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4),
]

_PLAYER = {chess.WHITE: 0, chess.BLACK: 1}


# -- perft -------------------------------------------------------------------------------------
def _position(fen: str):
    """A position on the core SUPERCHESS_CORE selects."""
    def set_up() -> Position:
        pos = Position(get_variant("chess"))
        set_fen(pos, fen)
        return pos
    return core_position(set_up)


def _our_divide(board: Board, depth: int) -> dict[str, int]:
    return {mv.text: n for mv, n in board.divide(depth)}


def _ref_divide(board: chess.Board, depth: int) -> dict[str, int]:
    out = {}
    for move in board.legal_moves:
        board.push(move)
        out[move.uci()] = ref_perft(board, depth - 1)
        board.pop()
    return out


def _divide_report(fen: str, depth: int, core: str | None = None) -> str:
    """The per-move counts that differ, then the path down to the first position whose legal move
    lists differ (so a perft mismatch names the exact position and move)."""
    ours, ref = Board("chess", fen, core=core), chess.Board(fen)
    lines = [f"perft({depth}) mismatch from {fen}"]
    path: list[str] = []
    for d in range(depth, 0, -1):
        a, b = _our_divide(ours, d), _ref_divide(ref, d)
        diff = sorted(m for m in a.keys() | b.keys() if a.get(m) != b.get(m))
        where = f" after {' '.join(path)}" if path else ""
        lines.append(f"divide({d}){where} [{ours.fen()}]: move ours/python-chess "
                     + ", ".join(f"{m} {a.get(m, '-')}/{b.get(m, '-')}" for m in diff))
        missing = sorted(b.keys() - a.keys())
        extra = sorted(a.keys() - b.keys())
        if missing or extra or not diff:
            lines.append(f"  legal moves differ: missing {missing}, extra {extra}")
            break
        path.append(diff[0])
        ours.push_text(diff[0])
        ref.push_uci(diff[0])
    return "\n".join(lines)


def _check_perft(fen: str, depth: int) -> None:
    pos = _position(fen)
    ours = pos.perft(depth)
    assert get_fen(pos) == fen, "perft did not restore the position"
    expected = ref_perft(chess.Board(fen), depth)
    if ours != expected:
        pytest.fail(f"ours {ours} != python-chess {expected}\n{_divide_report(fen, depth)}", pytrace=False)


@pytest.mark.parametrize("fen, depth", [pytest.param(f, d, id=f"{n}-d{d}") for n, f, d in SUITE])
def test_perft_suite(fen, depth):
    _check_perft(fen, depth)


@pytest.mark.parametrize("fen, depth", [pytest.param(f, d, id=f"{n}-d{d}") for n, f, d in EDGE_CASES])
def test_perft_edge_cases(fen, depth):
    _check_perft(fen, depth)


@pytest.mark.slow
@pytest.mark.parametrize("fen, depth", [pytest.param(f, d, id=f"{n}-d{d}") for n, f, d in SUITE_DEEP])
def test_perft_suite_deep(fen, depth):
    _check_perft(fen, depth)


def test_divide_report_finds_the_faulty_position(monkeypatch):
    """The mismatch report walks down to the position whose move lists differ (here: a move
    generator that has forgotten en passant)."""
    from superchess.rules.core.encoding import EP

    fen = "8/8/1k6/2b5/2p5/8/3P1K2/8 w - - 0 1"
    legal = Position.legal
    monkeypatch.setattr(Position, "legal", lambda self: [m for m in legal(self) if not m & EP])
    report = _divide_report(fen, 3, core="python")
    assert "divide(3) [" in report and "d2d4 " in report
    assert "divide(2) after d2d4" in report
    assert "missing ['c4d3']" in report, report


# -- seeded random games -----------------------------------------------------------------------
_TERMINATION = {
    chess.Termination.CHECKMATE: (Termination.CHECKMATE, False),
    chess.Termination.STALEMATE: (Termination.STALEMATE, False),
    chess.Termination.INSUFFICIENT_MATERIAL: (Termination.INSUFFICIENT_MATERIAL, False),
    chess.Termination.SEVENTYFIVE_MOVES: (Termination.MOVE_RULE, False),
    chess.Termination.FIVEFOLD_REPETITION: (Termination.REPETITION, False),
    chess.Termination.FIFTY_MOVES: (Termination.MOVE_RULE, True),
    chess.Termination.THREEFOLD_REPETITION: (Termination.REPETITION, True),
}


def _mapped(outcome):
    """python-chess outcome -> (our termination, our winner, claimed), or None."""
    if outcome is None:
        return None
    termination, claimed = _TERMINATION[outcome.termination]
    winner = None if outcome.winner is None else _PLAYER[outcome.winner]
    return termination, winner, claimed


def _ours(outcome):
    return None if outcome is None else (outcome.termination, outcome.winner, outcome.claimed)


class Comparer:
    """Compares one position of both boards and tallies which verdicts were exercised."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()
        self.positions = 0
        # Our hash must identify positions exactly as python-chess's repetition key does (pieces,
        # side, castling rights, en passant square only when a legal capture exists).
        self.hash_to_key: dict[int, object] = {}
        self.key_to_hash: dict[object, int] = {}

    def compare(self, ours: Board, ref: chess.Board, where: str) -> None:
        def check(what, a, b):
            assert a == b, f"{what}: ours {a!r} != python-chess {b!r} at {where}"

        self.positions += 1
        fen = ours.fen()
        check("fen", fen, ref.fen(en_passant="fen"))
        legal = [mv.text for mv in ours.legal_moves]
        check("legal moves (sorted)", legal, sorted(m.uci() for m in ref.legal_moves))
        check("turn", ours.turn, _PLAYER[ref.turn])
        check("ep_square", ours.ep_square, chess.square_name(ref.ep_square) if ref.ep_square is not None else None)
        check("is_check", ours.is_check(), ref.is_check())
        check("is_checkmate", ours.is_checkmate(), ref.is_checkmate())
        check("is_stalemate", ours.is_stalemate(), ref.is_stalemate())
        check("is_insufficient_material", ours.is_insufficient_material(), ref.is_insufficient_material())
        for color in (chess.WHITE, chess.BLACK):
            check(f"has_insufficient_material({_PLAYER[color]})",
                  ours.has_insufficient_material(_PLAYER[color]), ref.has_insufficient_material(color))
        for n in (2, 3, 5):
            check(f"is_repetition({n})", ours.is_repetition(n), ref.is_repetition(n))
        threefold = ours.can_claim_repetition()
        check("can_claim_repetition / can_claim_threefold_repetition", threefold,
              ref.can_claim_threefold_repetition())
        fifty = ours.can_claim_move_rule()
        check("can_claim_move_rule / can_claim_fifty_moves", fifty, ref.can_claim_fifty_moves())
        fivefold = ref.is_fivefold_repetition()
        seventyfive = ref.is_seventyfive_moves()
        check("is_fivefold_repetition", ours.is_repetition(ours.variant.repetition_auto), fivefold)
        check("is_seventyfive_moves", ours.halfmove_clock >= ours.variant.move_rule_auto and bool(legal),
              seventyfive)
        outcome = ref.outcome()
        check("outcome()", _ours(ours.outcome()), _mapped(outcome))
        check("outcome(claim_draw=True)", _ours(ours.outcome(claim_draw=True)), _mapped(ref.outcome(claim_draw=True)))
        check("is_game_over()", ours.is_game_over(), ref.is_game_over())

        key = ref._transposition_key()
        h = ours.zobrist_hash()
        check("position with this hash", self.hash_to_key.setdefault(h, key), key)
        check("hash of this position", self.key_to_hash.setdefault(key, h), h)

        seen = self.seen
        seen["check"] += ref.is_check()
        seen["checkmate"] += ref.is_checkmate()
        seen["stalemate"] += ref.is_stalemate()
        seen["insufficient material"] += ref.is_insufficient_material()
        seen["one side insufficient"] += ref.has_insufficient_material(chess.WHITE) != \
            ref.has_insufficient_material(chess.BLACK)
        seen["threefold claim"] += threefold
        seen["threefold claim by next move"] += threefold and not ref.is_repetition(3)
        seen["fifty-move claim"] += fifty
        seen["fivefold"] += fivefold
        seen["seventy-five moves"] += seventyfive
        seen["en passant square"] += ref.ep_square is not None
        seen["legal en passant"] += ref.has_legal_en_passant()
        seen["castling move"] += any(ref.is_castling(m) for m in ref.legal_moves)
        seen["promotion move"] += any(m.promotion for m in ref.legal_moves)
        if outcome is not None:
            seen[f"outcome {outcome.termination.name}"] += 1


PLY_CAP = 300


def _choose(rng: random.Random, ref: chess.Board, policy: str, ply: int, opening: int) -> chess.Move:
    """A legal move (from the list sorted by text, so games do not depend on python-chess's move
    order). Policies steer the games toward the endings we want to see:
    uniform  - any legal move;
    capture  - a move that mates or stalemates if there is one, else captures three times in four
               when there are some (endgames, mates, stalemates, bare Kings);
    shuffle  - after `opening` random plies, undo one's own previous move when possible (repetitions);
    quiet    - after `opening` random plies, avoid captures and pawn moves (50/75-move rules)."""
    moves = sorted(ref.legal_moves, key=lambda m: m.uci())
    if policy == "capture":
        for m in moves:
            ref.push(m)
            ends = ref.is_checkmate() or ref.is_stalemate()
            ref.pop()
            if ends:
                return m
        captures = [m for m in moves if ref.is_capture(m)]
        if captures and rng.random() < 0.75:
            return rng.choice(captures)
    elif policy == "shuffle" and ply >= opening and len(ref.move_stack) >= 2:
        last = ref.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves and rng.random() < 0.9:
            return back
    elif policy == "quiet" and ply >= opening:
        quiet = [m for m in moves if not ref.is_zeroing(m)]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(moves)


# (policy, starting FEN, seed, opening plies for shuffle/quiet)
GAMES = (
    [("uniform", START, s, 0) for s in range(6)]
    + [("capture", START, s, 0) for s in range(12)]
    + [("capture", fen, s, 0) for fen in (KIWIPETE, POS3, POS4, POS5, POS6) for s in range(2)]
    + [("capture", fen, 0, 0) for _, fen, _ in EDGE_CASES]
    + [("shuffle", START, s, 12) for s in range(4)]
    + [("shuffle", KIWIPETE, 0, 4), ("shuffle", POS4, 0, 2)]
    + [("quiet", START, s, 40) for s in range(2)]
    + [("quiet", POS6, 0, 20)]
    # a clock near the limits from the first move: claims by the next move, then 75 moves
    + [("quiet", "r3k3/8/8/8/8/8/8/4K2R w Kq - 96 70", s, 0) for s in range(2)]
)


def _play(comparer: Comparer, policy: str, fen: str, seed: int, opening: int) -> None:
    rng = random.Random(seed)
    ours, ref = Board("chess", fen), chess.Board(fen)
    start_fen, start_hash = ours.fen(), ours.zobrist_hash()
    history: list[tuple[str, int]] = []
    played: list[str] = []
    while True:
        where = f"{policy} game, seed {seed}, from {fen!r}, after moves {' '.join(played) or '(none)'}"
        comparer.compare(ours, ref, where)
        if ref.is_game_over() or len(played) >= PLY_CAP:
            break
        move = _choose(rng, ref, policy, len(played), opening)
        history.append((ours.fen(), ours.zobrist_hash()))
        mv = ours.parse_move(move.uci())
        ours.push(mv)
        ref.push(move)
        played.append(move.uci())
        assert ours.peek() == mv and ours.peek().text == move.uci()
    # Take everything back through the public API: every earlier position comes back exactly.
    while history:
        fen_before, hash_before = history.pop()
        text = played.pop()
        assert ours.pop().text == text
        ref.pop()
        assert (ours.fen(), ours.zobrist_hash()) == (fen_before, hash_before), \
            f"pop of {text} in {policy} game {seed} did not restore the position"
        assert ours.fen() == ref.fen(en_passant="fen")
    assert not ours.move_stack
    assert ours.fen() == start_fen and ours.zobrist_hash() == start_hash


def test_random_games_match_python_chess():
    comparer = Comparer()
    for policy, fen, seed, opening in GAMES:
        _play(comparer, policy, fen, seed, opening)
    seen = comparer.seen
    print(f"\n{comparer.positions} positions compared in {len(GAMES)} games; verdicts seen: {dict(sorted(seen.items()))}")
    assert comparer.positions >= 2000
    # Every verdict must actually have been exercised, so the comparisons above are not vacuous.
    for kind in ("check", "checkmate", "stalemate", "insufficient material", "one side insufficient",
                 "threefold claim", "threefold claim by next move", "fifty-move claim", "fivefold",
                 "seventy-five moves", "legal en passant", "castling move", "promotion move",
                 "outcome CHECKMATE", "outcome STALEMATE", "outcome INSUFFICIENT_MATERIAL",
                 "outcome FIVEFOLD_REPETITION", "outcome SEVENTYFIVE_MOVES"):
        assert seen[kind] > 0, f"no position with {kind} in the random games: {dict(seen)}"
    # en passant squares that python-chess would not print by default (no legal capture) occurred
    assert seen["en passant square"] > seen["legal en passant"]


# -- targeted positions and lines -----------------------------------------------------------------
INSUFFICIENT = [
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",        # K v K
    "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",       # KN v K
    "8/8/8/4k3/8/8/8/2NNK3 w - - 0 1",      # KNN v K
    "8/8/8/3qk3/8/8/8/3NK3 w - - 0 1",      # KN v KQ
    "8/8/8/3rk3/8/8/8/3NK3 b - - 0 1",      # KN v KR
    "8/8/8/3bk3/8/8/8/3NK3 w - - 0 1",      # KN v KB
    "8/8/8/4k3/8/8/8/2B1K1B1 w - - 0 1",    # KBB (one colour) v K
    "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",     # KBB (both colours) v K
    "8/8/8/2b1k3/8/8/8/2B1K3 w - - 0 1",    # KB v KB, same colour
    "8/8/8/3bk3/8/8/8/2B1K3 b - - 0 1",     # KB v KB, opposite colours
    "8/8/8/3nk3/8/8/8/2B1K3 w - - 0 1",     # KB v KN
    "8/8/8/4k3/8/8/4p3/2B1K3 w - - 0 1",    # KB v KP
    "8/8/8/4k3/8/8/8/2Q1K3 w - - 0 1",      # KQ v K
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",       # stalemate
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",       # checkmate
    "k7/8/1K6/8/8/8/8/1B6 b - - 0 1",       # bare King to move against KB (insufficient, not mate)
]


@pytest.mark.parametrize("fen", INSUFFICIENT)
def test_static_verdicts(fen):
    Comparer().compare(Board("chess", fen), chess.Board(fen), fen)


# (starting FEN, moves, expected python-chess is_repetition(2) at the end)
LINES = [
    # an en passant square nobody can use does not tell positions apart ...
    (START, "e2e4 g8f6 g1f3 f6g8 f3g1", True),
    # ... but one that can be used does (d6 is capturable by the e5 pawn)
    (START, "e2e4 g8f6 e4e5 d7d5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8", True),
    (START, "e2e4 g8f6 e4e5 d7d5 g1f3 f6g8 f3g1 g8f6", False),
    # en passant that is pseudo-legal only (the capturing pawn is pinned): not in the key
    ("1k6/8/8/8/1p6/8/P7/1R2K3 w - - 0 1", "a2a4 b8b7 e1d1 b7b8 d1e1", True),
    # castling rights lost by shuffling King and Rook: no repetition with the earlier positions
    (KIWIPETE, "e1f1 e8f8 f1e1 f8e8 e1f1 e8f8 f1e1 f8e8 e1f1 e8f8", True),
]


@pytest.mark.parametrize("fen, moves, repeated", LINES)
def test_scripted_lines(fen, moves, repeated):
    comparer = Comparer()
    ours, ref = Board("chess", fen), chess.Board(fen)
    for text in moves.split():
        comparer.compare(ours, ref, f"{fen} after {ref.move_stack}")
        ours.push_text(text)
        ref.push_uci(text)
    comparer.compare(ours, ref, f"{fen} after {moves}")
    assert ref.is_repetition(2) is repeated
