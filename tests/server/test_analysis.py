"""The analysis board's endpoints (docs/protocol.md, "Analysis"): positions of every variant with
their legal moves and readable notation, bad input refused clearly, records imported and exported,
and the engine's line bounded to one analysis per client."""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from superchess.rules import VARIANTS
from superchess.engine import warm_up
from superchess.engine.analysis import analyse
from superchess.server.analysis import Analyses, BusyError

from .util import Server, ok


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_start_position_of_every_variant(server, variant):
    b = server.browser()
    state = ok(b.post("/api/analysis/position", json={"variant": variant}))
    assert state["variant"] == variant and state["moves"] == [] and state["legal"] and state["outcome"] is None
    origin, tails = next(iter(state["legal"].items()))
    first = origin + tails[0] if isinstance(tails[0], str) else tails[0]["move"]
    after = ok(b.post("/api/analysis/position", json={"variant": variant, "moves": [first]}))
    assert after["moves"][0] == first and after["written"] and after["fen"] != state["fen"]


def test_readable_moves_are_accepted_and_mate_ends_the_line(server):
    b = server.browser()
    state = ok(b.post("/api/analysis/position", json={"variant": "chess", "moves": ["f3", "e5", "g4", "Qh4#"]}))
    assert state["moves"] == ["f2f3", "e7e5", "g2g4", "d8h4"] and state["written"] == "Qh4#"
    assert state["outcome"] == {"result": "0-1", "termination": "checkmate", "winner": 1}
    assert state["legal"] == {} and state["check"] == "e1"
    engine = ok(b.post("/api/analysis/engine", json={"variant": "chess", "moves": state["moves"]}))
    assert engine["pv"] == []  # nothing to think about


@pytest.mark.parametrize("body,words", [
    ({"variant": "nope"}, "unknown variant"),
    ({"variant": "chess", "moves": ["e4", "e4"]}, "move 2"),
    ({"variant": "chess", "fen": "not a fen"}, "fen"),
    ({"variant": "chess", "moves": ["x" * 41]}, "40 characters"),
    ({"variant": "chess", "moves": ["e4"] * 1001}, "moves"),
])
def test_bad_positions_are_refused_clearly(server, body, words):
    r = server.browser().post("/api/analysis/position", json=body)
    assert r.status_code == 400 and words in r.json()["detail"].lower(), r.text


def test_import_and_export_a_record(server):
    b = server.browser()
    record = '[Variant "intergrid"]\n\n1. e2e4 G1E2 e5,NE6 2. Nf3 *'
    got = ok(b.post("/api/analysis/import", json={"record": record}))
    assert got["variant"] == "intergrid" and got["moves"][:4] == ["e2e4", "G1E2", "e7e5", "G7E6"]
    assert got["notation"][:4] == ["e4", "NE2", "e5", "NE6"]
    text = b.post("/api/analysis/record", json={"variant": "intergrid", "moves": got["moves"]})
    assert text.status_code == 200 and "1. e4,NE2 e5,NE6 2. Nf3" in text.text, text.text
    again = ok(b.post("/api/analysis/import", json={"record": text.text}))
    assert again["moves"] == got["moves"]
    bad = b.post("/api/analysis/import", json={"record": '[Variant "chess"]\n\n1. e4 e4 *'})
    assert bad.status_code == 400 and "move 2" in bad.json()["detail"]


def test_engine_line_in_readable_notation(server):
    b = server.browser()
    got = ok(b.post("/api/analysis/engine", json={"variant": "chess", "fen": "6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1",
                                                   "movetime_ms": 500}))
    assert got["pv"][0] == "d1d8" and got["line"][0] == "Rd8#" and got["score"] == {"mate": 1}
    assert got["white_cp"] > 0


def test_one_analysis_at_a_time_per_client_and_a_few_in_all():
    release = threading.Event()

    def think(*args):
        release.wait(10)
        return {"pv": list(args[2])}

    async def scenario():
        analyses = Analyses(make_pool=lambda: ThreadPoolExecutor(2), limit=2, think=think)
        first = asyncio.ensure_future(analyses.run("a", "chess", None, ["e2e4"], None, 100))
        await asyncio.sleep(0.05)
        with pytest.raises(BusyError, match="yours"):
            await analyses.run("a", "chess", None, [], None, 100)
        second = asyncio.ensure_future(analyses.run("b", "chess", None, [], None, 100))
        await asyncio.sleep(0.05)
        with pytest.raises(BusyError, match="busy"):
            await analyses.run("c", "chess", None, [], None, 100)
        release.set()
        assert await first == {"pv": ["e2e4"]} and await second == {"pv": []}
        assert await analyses.run("a", "chess", None, [], None, 100) == {"pv": []}  # free again
        analyses.close()
    asyncio.run(scenario())


def test_serve_starts_the_analysis_worker_and_its_warm_up_before_the_first_analysis(data_dir, clock):
    """Issue 23: `serve` (start_analysis) makes the analysis pool during the start-up and has it warm
    the engine up, one variant per task (the next submitted when one is done, so an analysis waits
    for one at most), without waiting for it; the first analysis uses that pool."""
    pools, tasks = [], []

    class Pool(ThreadPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            tasks.append(args[0] if fn is warm_up else fn)
            if fn is warm_up:  # what the worker process would compile: not here, in the test's process
                done = Future()
                done.set_result(None)
                return done
            return super().submit(fn, *args, **kwargs)

    def make_pool():
        pools.append(Pool(1))
        return pools[-1]

    server = Server(data_dir, clock, analysis_executor=make_pool, start_analysis=True)
    try:
        assert len(pools) == 1 and tasks == [(name,) for name in VARIANTS]  # before the start-up ended
        assert tasks[0] == ("super16",)
        ok(server.browser().post("/api/analysis/engine", json={"variant": "chess", "movetime_ms": 100}))
        assert len(pools) == 1 and tasks[-1] is analyse
    finally:
        server.close()
    plain = Server(data_dir, clock, analysis_executor=make_pool)  # tests and other apps: on first use
    plain.close()
    assert len(pools) == 1
