"""The superchess command (rules-layer commands)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.request

import pytest

from superchess.rules import Board
from tests.cli.helpers import run
from tests.oracles import intergrid as ig


def test_fen_prints_the_start_position(capsys):
    for variant in ("super16", "chess"):
        code, out, _ = run(capsys, "fen", "--variant", variant)
        assert code == 0 and out.strip() == Board(variant).fen()


def test_moves_lists_the_legal_moves_sorted(capsys):
    code, out, _ = run(capsys, "moves", "--variant", "chess", "--moves", "e2e4", "e7e5")
    b = Board("chess")
    b.push_text("e2e4")
    b.push_text("e7e5")
    lines = out.split()
    assert code == 0 and lines == sorted(m.text for m in b.legal_moves) and len(lines) == 29


def test_intergrid_fen_and_moves_within_a_turn(capsys):
    """intergrid I8, R8, R15: square moves first, then point moves and `end`."""
    code, out, _ = run(capsys, "fen", "--variant", "intergrid")
    assert code == 0 and out.strip() == ig.START_FEN
    code, out, _ = run(capsys, "moves", "--variant", "intergrid")
    assert code == 0 and out.split() == ["b1a3", "b1c3", "d2d3", "d2d4", "e2e3", "e2e4", "g1f3", "g1h3"]
    code, out, _ = run(capsys, "moves", "--variant", "intergrid", "--moves", "b1a3")
    assert code == 0 and len(out.split()) == 24 and out.split()[-1] == "end"
    code, out, _ = run(capsys, "moves", "--variant", "intergrid", "--moves", "b1a3 end", "e7e5")
    assert code == 0 and out.split()[-1] == "end" and all(t[0].isupper() for t in out.split()[:-1])


def test_moves_from_a_fen(capsys):
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    code, out, _ = run(capsys, "moves", "-v", "chess", "--fen", fen)
    assert code == 0 and "e1g1" in out.split() and len(out.split()) == len(Board("chess", fen).legal_moves)


def test_perft_last_line_is_the_count(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "super16", "--depth", "2")
    assert code == 0 and out.strip().splitlines()[-1] == str(Board("super16").perft(2))


def test_perft_divide_sums_to_the_total(capsys):
    code, out, _ = run(capsys, "perft", "-v", "chess", "--depth", "3", "--divide")
    lines = out.strip().splitlines()
    counts = [int(line.split(": ")[1]) for line in lines[:-1]]
    assert code == 0 and len(counts) == 20 and sum(counts) == int(lines[-1]) == 8902


@pytest.mark.parametrize("argv,message", [
    (["moves", "--variant", "shogi"], "Invalid value for '--variant'"),
    (["moves", "--fen", "8/8 w - - 0 1"], "FEN has 2 ranks, expected 16"),
    (["moves", "--moves", "h2h5"], "illegal move h2h5"),
    (["perft", "--depth", "x"], "'--depth'"),
    (["perft"], "Missing option '--depth'"),
    (["moves", "--roster1", "N:jump:0,0"], "(0, 0)"),
    (["frobnicate"], "No such command"),
])
def test_bad_arguments_give_a_one_line_error(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_installed_command_runs():
    proc = subprocess.run([sys.executable, "-m", "superchess.cli", "fen", "-v", "chess"],
                          capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == Board("chess").fen()


def test_several_server_processes_need_postgresql(capsys, tmp_path):
    code, _, err = run(capsys, "serve", "--workers", "2", "--data", str(tmp_path))
    assert code == 2 and "--workers above 1 needs --db postgresql://" in err
    assert not (tmp_path / "superchess.db").exists()  # refused before anything was made


def test_serve_prints_the_url_once_the_server_answers(tmp_path):
    """The URL a newcomer clicks is printed after the start-up, when the server already answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "superchess.cli", "serve", "--port", str(port), "--data",
                             str(tmp_path)], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert "starting" in proc.stdout.readline()
        line = proc.stdout.readline()
        assert f"open http://127.0.0.1:{port}/" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.postgresql
def test_serve_with_two_workers_over_postgresql_answers_on_one_port(postgres, tmp_path):
    """`serve --workers 2`: two processes share the port (SO_REUSEPORT) and the database."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "superchess.cli", "serve", "--workers", "2", "--port", str(port),
                             "--db", postgres.database("workers")], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        ready = []
        while len(ready) < 2:
            line = proc.stdout.readline()
            assert line, "the servers stopped"
            if f"open http://127.0.0.1:{port}/" in line:
                ready.append(line)
        for _ in range(6):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
                assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(30)
