"""The native search (Rust, `superchess._native.Searcher`; native/src/search/) behind the engine's
interface: `search_position` in play.py hands it every board that offers a native position (a
variant the native core plays, when the native core is selected: SUPERCHESS_CORE, as for the
rules), and the Python search (search.py) stays the fallback.

What crosses over: the board's native position (`CoreBoard.native_position`: a Python core
board, as a Private game's believed model is replayed, is copied in its state with its history's
hashes), the evaluation tables the Python evaluator builds (evaluate.py, parameters in eval.toml)
and the limits. The search runs without the GIL on a copy of the position; a `StopRequest` (a threading.Event) stops
it from another thread. Memory: a searcher holds its transposition table (the Hash megabytes,
never more) plus its move-ordering memory (`MEMORY_CONSTANT_BYTES` at most); a process keeps at
most `KEEP` searchers (the UCI engine one).
"""
from __future__ import annotations

import random
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable

from ..rules.core.encoding import MAX_CODE, type_of
from ..rules.core.hooks import INSUFFICIENT_MATERIAL
from ..rules.core.native import NativePosition
from . import network
from .evaluate import Evaluator, evaluator_for, unpack
from .search import MATE, Limits, Result, choose_near_best

try:
    from .. import _native
except ImportError:  # not built: boards offer no native position, so nothing here runs
    _native = None
KEEP = 2
#: the continuation history's most (native/src/search/alphabeta.rs CONT_BITS: 2**20 entries of 2 bytes)
CONTINUATION_BYTES = 2 * 2 ** 20
#: the ordering memory of the largest board (1024 cells: 12 bytes per piece code and cell, plus
#: the continuation history)
MEMORY_CONSTANT_BYTES = 12 * MAX_CODE * 1024 + CONTINUATION_BYTES
_searchers: OrderedDict[tuple, "_native.Searcher"] = OrderedDict()
_evaluations: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_probe = None  # the searcher of `static_evaluation` (1 MB), made on first use


class StopRequest(threading.Event):
    """A stop request for a search in another thread: an Event that also reaches the native
    search."""

    def __init__(self) -> None:
        super().__init__()
        self.flag = _native.StopFlag() if _native is not None else None

    def set(self) -> None:
        super().set()
        if self.flag is not None:
            self.flag.set()


def evaluation(ev: Evaluator) -> "_native.Evaluation":
    """The native copy of an evaluator's tables (made once per evaluator, living as long as it)."""
    out = _evaluations.get(ev)
    if out is None:
        n = ev.tables.size
        mg, eg = [0] * (MAX_CODE * n), [0] * (MAX_CODE * n)
        phase = [0] * MAX_CODE
        for code, row in enumerate(ev.pst):
            for cell, packed in enumerate(row):
                mg[code * n + cell], eg[code * n + cell], phase[code] = unpack(packed)
        variant = ev.variant
        letters = {code: variant.pieces[type_of(code) - 1].letter for code in range(MAX_CODE)
                   if 0 < type_of(code) <= len(variant.pieces)}
        minor = [letters.get(code) in ("N", "B") for code in range(MAX_CODE)]
        rule = next(name for name, hook in INSUFFICIENT_MATERIAL.items() if hook is variant.insufficient_material)
        terms = {k: int(v) for k, v in ev.params["terms"].items()}
        net = ev.network and (ev.network.w1.tolist(), ev.network.b1.tolist(), ev.network.w2.tolist(),
                              ev.network.b2, *network.inputs(variant))
        out = _evaluations[ev] = _native.Evaluation(
            n, variant.geometry.files, mg, eg, phase, ev.phase_max, ev.value, ev.order_value,
            ev.attack_weight, ev.shield, minor, ev.zone_radius, terms, rule, variant.move_rule_claim, net)
    return out


def searcher(key: tuple, hash_mb: int) -> "_native.Searcher":
    """The process's searcher for a variant and roster pair (`key`) and table size: its table
    and ordering memory carry over from one move of a game to the next."""
    k = key + (hash_mb,)
    s = _searchers.get(k)
    if s is None:
        while len(_searchers) >= KEEP:  # the old table goes before the new one is allocated
            _searchers.popitem(last=False)
        s = _searchers[k] = _native.Searcher(hash_mb)
    else:
        _searchers.move_to_end(k)
    return s


def forget() -> None:
    """Drop every searcher (a new game: nothing learnt carries over)."""
    _searchers.clear()


def python_score(score: int) -> int:
    """A native score on the Python search's scale (mate scores count plies from MATE)."""
    if score > _native.SEARCH_MATE[1]:
        return MATE - (_native.SEARCH_MATE[0] - score)
    if score < -_native.SEARCH_MATE[1]:
        return -MATE + (_native.SEARCH_MATE[0] + score)
    return score


def static_evaluation(pos: NativePosition) -> int:
    """The native evaluation of a native position, from the side to move's point of view."""
    global _probe
    ev = evaluation(evaluator_for(pos.variant, pos.rosters))
    _probe = _probe or _native.Searcher(1)
    return _probe.evaluate(pos, ev)[0]


def search(pos: NativePosition, history: list[int], key: tuple, limits: Limits, root_moves: list[int], *,
           noise: int = 0, margin: int = 0, rng: random.Random | None = None, hash_mb: int = 16,
           t0: float | None = None, info: Callable[[Result], None] | None = None,
           stop_event: StopRequest | None = None) -> Result:
    """Search a native position (`CoreBoard.native_position`: the position and the hashes of the
    positions before its own history) among `root_moves` (move integers; ones the position does
    not allow are ranked last); `key` names the variant and rosters (a searcher's table is per
    key). As `Searcher.search` in search.py otherwise."""
    if stop_event is not None and not isinstance(stop_event, StopRequest):
        raise TypeError("the native search stops on a StopRequest")
    rng = rng or random.Random()
    ev = evaluation(evaluator_for(pos.variant, pos.rosters))
    start = t0 if t0 is not None else time.monotonic()

    def report(depth, seldepth, score, nodes, ms, pv, hashfull) -> None:
        info(Result(move=pv[0] if pv else 0, score=python_score(score), depth=depth, pv=list(pv), nodes=nodes,
                    elapsed=ms / 1000, seldepth=seldepth, hashfull=hashfull))

    out = searcher(key, hash_mb).search(
        pos, ev, root_moves, history, depth=limits.depth, nodes=limits.nodes or 0, soft_ms=limits.soft_ms,
        hard_ms=limits.hard_ms, infinite=limits.infinite, offset_ms=(time.monotonic() - start) * 1000,
        margin=margin, noise=noise, seed=rng.getrandbits(64), stop=stop_event.flag if stop_event else None,
        info=report if info else None)
    result = Result(move=out["move"], score=python_score(out["score"]), depth=out["depth"], pv=out["pv"],
                    nodes=out["nodes"], elapsed=out["elapsed_ms"] / 1000,
                    root_scores={m: python_score(s) for m, s in out["root_scores"]}, seldepth=out["seldepth"])
    if margin:
        choose_near_best(result, margin, rng)
    return result

