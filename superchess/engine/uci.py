"""The UCI protocol (`superchess engine`): lets chess GUIs and tools use the engine.

Supported: uci, isready, ucinewgame, setoption (UCI_Variant, Hash, Level, Roster1, Roster2),
position startpos|fen <fen> [moves ...], go (wtime btime winc binc movestogo movetime depth nodes
infinite; with no limit at all, or with only a clock at levels below 8, the Level option's limits
apply exactly as in `choose_move`), stop, quit. The search runs in a thread so that `stop`,
`isready` and `quit` are answered while it thinks. Moves are the project's move text (for orthodox chess the same as UCI's
long algebraic notation; promotions with a lower-case letter). A bad command or position produces
an `info string error: ...` line and changes nothing.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

from ..rules import VARIANTS, Board, ProgramError, Roster
from .families import engine_of
from .levels import get_level
from .play import clear_tables

NAME = "superchess"
AUTHOR = "the superchess project"
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 2048


class UciEngine:
    """One UCI session; `handle(line)` returns False on `quit`."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._out_lock = threading.Lock()
        self.variant = "chess"
        self.rosters = (Roster(), Roster())
        self.hash_mb = DEFAULT_HASH_MB
        self.level = 8
        self.board = Board(self.variant)
        self.thread: threading.Thread | None = None
        self.stop_event = threading.Event()
        self.infinite = False

    def send(self, line: str) -> None:
        with self._out_lock:
            self._write(line)

    def error(self, message: str) -> None:
        self.send(f"info string error: {message}")

    # -- commands -------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        try:
            if cmd == "uci":
                self.cmd_uci()
            elif cmd == "isready":
                self.send("readyok")
            elif cmd == "ucinewgame":
                self.stop()
                clear_tables()
                self.board = Board(self.variant, None, self.rosters)
            elif cmd == "setoption":
                self.stop()
                self.cmd_setoption(args)
            elif cmd == "position":
                self.stop()
                self.cmd_position(args)
            elif cmd == "go":
                self.cmd_go(args)
            elif cmd == "stop":
                self.stop()
            elif cmd == "quit":
                self.stop()
                return False
            elif cmd == "debug":
                pass
            else:
                self.error(f"unknown command {cmd!r}")
        except Exception as e:  # noqa: BLE001 - a protocol session must survive any bad input
            self.error(f"{cmd}: {e}")
        return True

    def cmd_uci(self) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        variants = " ".join(f"var {v}" for v in VARIANTS)
        self.send(f"option name UCI_Variant type combo default chess {variants}")
        self.send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        self.send("option name Level type spin default 8 min 1 max 8")
        self.send("option name Roster1 type string default <empty>")
        self.send("option name Roster2 type string default <empty>")
        self.send("uciok")

    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise ValueError("expected: setoption name <name> [value <value>]")
        if "value" in args:
            i = args.index("value")
            name, value = " ".join(args[1:i]), " ".join(args[i + 1:])
        else:
            name, value = " ".join(args[1:]), ""
        key = name.lower()
        if key == "uci_variant":
            if value not in VARIANTS:
                raise ValueError(f"unknown variant {value!r} (known: {', '.join(VARIANTS)})")
            self.variant = value
            self.rosters = (Roster(), Roster())
            self.board = Board(self.variant)
        elif key == "hash":
            self.hash_mb = max(1, min(MAX_HASH_MB, int(value)))
        elif key == "level":
            get_level(int(value))
            self.level = int(value)
        elif key in ("roster1", "roster2"):
            roster = Roster.parse("" if value == "<empty>" else value)
            rosters = list(self.rosters)
            rosters[0 if key == "roster1" else 1] = roster
            board = Board(self.variant, None, (rosters[0], rosters[1]))  # validates the roster
            self.rosters = (rosters[0], rosters[1])
            self.board = board
        else:
            raise ValueError(f"unknown option {name!r}")

    def cmd_position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected: position startpos|fen <fen> [moves ...]")
        if "moves" in args:
            i = args.index("moves")
            head, moves = args[:i], args[i + 1:]
        else:
            head, moves = args, []
        if head[0] == "startpos" and len(head) == 1:
            fen = None
        elif head[0] == "fen" and len(head) > 1:
            fen = " ".join(head[1:])
        else:
            raise ValueError("expected: position startpos|fen <fen> [moves ...]")
        try:
            board = Board(self.variant, fen, self.rosters)
            for text in moves:
                board.push_text(text)
        except (ValueError, ProgramError) as e:
            raise ValueError(f"{e} (position unchanged)") from None
        self.board = board

    def cmd_go(self, args: list[str]) -> None:
        if self.thread is not None and self.thread.is_alive():
            raise ValueError("already searching (send stop first)")
        opts: dict[str, int] = {}
        infinite = False
        i = 0
        while i < len(args):
            a = args[i]
            if a == "infinite":
                infinite = True
                i += 1
            elif a == "ponder":
                i += 1
            elif a in ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate"):
                if i + 1 >= len(args):
                    raise ValueError(f"go: {a} needs a number")
                opts[a] = int(args[i + 1])
                i += 2
            else:
                raise ValueError(f"go: unknown parameter {a!r}")
        self.stop_event, self.infinite = threading.Event(), infinite
        self.thread = threading.Thread(target=engine_of(self.variant).think_uci, daemon=True, args=(
            self.board.copy(), opts | {"level": self.level, "hash": self.hash_mb}, infinite, self.stop_event,
            self.send))
        self.thread.start()

    def finish(self) -> None:
        if self.thread is not None:
            if self.infinite:
                self.stop_event.set()
            self.thread.join()
            self.thread = None

    def stop(self) -> None:
        if self.thread is not None:
            self.stop_event.set()
            self.thread.join()
            self.thread = None


def run(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Read UCI commands from `stdin` until `quit` or end of input."""
    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = UciEngine(write)
    for line in stdin:
        if not engine.handle(line.strip()):
            break
    else:  # end of input: let a bounded search finish (an infinite one is stopped)
        engine.finish()
    return 0
