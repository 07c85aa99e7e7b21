"""bench/load.py's correctness check at a tiny size, so the benchmark keeps measuring what it says:
real server processes play concurrent games over websockets and every stored record must equal the
moves sent and seen (no move lost, doubled or reordered), on SQLite (with either client) and on two
processes over PostgreSQL (with one process beside, as the scaling figure runs)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "load.py"), "--games", "4", "--plies", "6",
                           "--timeout", "60", *args], cwd=ROOT, capture_output=True, text=True, timeout=180)


def _assert_passed(run: subprocess.CompletedProcess) -> None:
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "overall: PASS" in run.stdout
    assert "24 moves" in run.stdout  # 4 games x 6 plies, all recorded


def test_the_load_benchmark_passes_on_sqlite():
    _assert_passed(_load())


@pytest.mark.skipif(shutil.which("cargo") is None, reason="the compiled client needs cargo")
def test_the_load_benchmark_passes_with_its_compiled_client():
    _assert_passed(_load("--client", "native"))


@pytest.mark.postgresql
def test_the_load_benchmark_passes_on_one_then_two_processes_over_postgresql(postgres):
    run = _load("--db", postgres.url, "--processes", "1,2")
    _assert_passed(run)
    assert "N=4: 2 processes against 1: per round" in run.stdout  # the scaling of the runs side by side
