"""The caches of compiled tables are bounded by memory, not by entry count (issue 18 item 6: 60
distinct large rosters took a server from 225 MB to 2.27 GB): `byte_lru.ByteLRU`, the estimates it
is fed (never below what a deep walk of the objects finds), and the tables caches built on it."""
from __future__ import annotations

import sys

import pytest

from superchess.rules import Board, Program, Roster, get_variant
from superchess.rules.core import tables
from superchess.rules.core.byte_lru import ByteLRU

SHORT = sorted(((x, y) for x in range(-4, 5) for y in range(-4, 5) if (x, y) != (0, 0)), key=lambda v: max(map(abs, v)))


def test_byte_lru_evicts_the_least_recently_used_until_the_bytes_fit():
    cache: ByteLRU[str, str] = ByteLRU(100)
    cache.put("a", "A", 40)
    cache.put("b", "B", 40)
    assert cache.get("a") == "A"          # "a" is now the most recently used
    cache.put("c", "C", 40)               # 120 > 100: "b" goes
    assert "b" not in cache and cache.get("a") == "A" and cache.get("c") == "C" and cache.nbytes == 80
    cache.put("a", "A2", 10)              # replacing counts the new size only
    assert cache.nbytes == 50 and cache.get("a") == "A2"
    cache.put("huge", "H", 101)           # larger than the ceiling: not kept, nothing evicted for it
    assert "huge" not in cache and len(cache) == 2
    assert cache.get_or_make("d", lambda: "D", lambda v: 60) == "D" and "c" not in cache and cache.nbytes == 70


def allocated(obj, seen: set[int]) -> int:
    """What a deep walk finds: every object reachable through tuples, lists, sets and dicts, in the
    allocator's 16-byte blocks; ints CPython shares (-5..256) and objects in `seen` are not counted."""
    total, stack = 0, [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen or (type(o) is int and -5 <= o <= 256):
            continue
        seen.add(id(o))
        total += (sys.getsizeof(o) + 15) & ~15
        if isinstance(o, (tuple, list, set, frozenset)):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o)
            stack.extend(o.values())
    return total


PROGRAMS = [Program("slide", tuple(SHORT[:64])), Program("jump", tuple(SHORT[-64:])),
            Program("step", tuple((x, y) for x in range(-15, 16, 4) for y in range(-15, 16, 2))[:64]),
            Program("slide", ((0, 1), (1, 1), (-1, 1)))]


@pytest.mark.parametrize("variant", ["super16", "chess", "superchess"])
@pytest.mark.parametrize("program", PROGRAMS, ids=["slides", "jumps", "steps", "few"])
def test_the_estimates_are_never_below_what_the_tables_take(variant, program):
    """`piece_bytes` of a compiled piece (its Pawn too: promotions, en passant) and `Tables.nbytes`
    (all but the default pieces' move tables, which are kept once per variant anyway) cover what
    a deep walk of the objects finds, and not by more than half again."""
    v = get_variant(variant)
    pawn = next(ti for ti, p in enumerate(v.pieces, 1) if p.pawn)
    for side, ti in ((0, 1), (1, pawn)):
        piece = tables.compiled_piece(variant, side, ti, program)
        assert allocated(piece, set()) <= tables.piece_bytes(*piece) <= 1.5 * allocated(piece, set())
    t = tables.Tables(v, (Roster({p.letter: program for p in v.pieces}), Roster()))
    seen: set[int] = set()
    allocated([t.gen[code] for code in range(len(t.gen)) if code >> 6 == 1], seen)  # the default pieces
    held = allocated([t.attacks, t.gen, t.z_piece, t.z_ep, t.z_castle, t.z_hold, t.castle_keep, t.castle_entries,
                      t.royal, t.pawn, t.checkable, t.own, t.holdable, t.symbol, t.promotions], seen)
    assert held <= t.nbytes <= 1.5 * held


def test_compiled_tables_stay_under_their_ceilings_old_ones_are_evicted(monkeypatch):
    """Compiling many distinct rosters keeps each cache's accounted bytes under its ceiling, evicting
    the least recently used; the default tables stay; tables a board still uses are found again
    (not rebuilt) after their eviction. Small ceilings stand for the real ones (`TABLE_CACHE_BYTES`,
    `PIECE_CACHE_BYTES`)."""
    roster_tables, pieces = ByteLRU(6 << 20), ByteLRU(2 << 20)
    monkeypatch.setattr(tables, "table_cache", roster_tables)
    monkeypatch.setattr(tables, "piece_cache", pieces)
    default = Board("chess")._pos.tables
    knight = Roster({"N": Program("jump", ((1, 3),))})
    kept = Board("super16", rosters=(knight, Roster()))
    rosters = [Roster({letter: Program("slide", tuple(SHORT[i:i + 40])) for letter in "QRBN"}) for i in range(12)]
    chess = get_variant("chess")
    for r in rosters:
        tables.tables_for(chess, (r, Roster()))
        assert roster_tables.nbytes <= roster_tables.ceiling and pieces.nbytes <= pieces.ceiling
    key = ("chess", rosters[0].key(), ())
    assert key not in roster_tables and ("chess", rosters[-1].key(), ()) in roster_tables
    assert len(roster_tables) < len(rosters) and len(pieces) < 4 * len(rosters)
    assert Board("chess")._pos.tables is default
    assert ("super16", knight.key(), ()) not in roster_tables
    again = Board("super16", rosters=(Roster(knight), Roster()))
    assert again._pos.tables is kept._pos.tables
