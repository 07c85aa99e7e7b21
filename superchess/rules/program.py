"""Reprogrammed movement (Super Chess 16x16 R13-R17): programs, rosters, validation, text.

A program is a set of vectors written from the owner's side plus one mode (jump, step, slide).
A roster maps piece letters to programs; a letter without a program moves by its default.
Text form, used in game records: entries separated by spaces, each `LETTER:mode:dx,dy/dx,dy/...`,
e.g. `N:jump:1,2/2,1 Q:step:0,4`.
"""
from __future__ import annotations

from dataclasses import dataclass

from .pieces import Component, Vector, make_component

PROGRAM_MODES = ("jump", "step", "slide")
MAX_VECTORS = 64
MAX_COMPONENT = 15


class ProgramError(ValueError):
    """An invalid program or roster; the message names the piece and the bad vector."""


@dataclass(frozen=True)
class Program:
    mode: str
    vectors: tuple[Vector, ...]

    def validate(self, piece: str = "piece") -> None:
        if self.mode not in PROGRAM_MODES:
            raise ProgramError(f"{piece}: unknown mode {self.mode!r} (use jump, step or slide)")
        if not 1 <= len(self.vectors) <= MAX_VECTORS:
            raise ProgramError(f"{piece}: a program needs 1 to {MAX_VECTORS} vectors, "
                               f"not {len(self.vectors)}")
        seen = set()
        for v in self.vectors:
            if (not isinstance(v, tuple) or len(v) != 2
                    or not all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
                raise ProgramError(f"{piece}: vector {v!r} is not a pair of integers")
            if v == (0, 0):
                raise ProgramError(f"{piece}: vector (0, 0) is not a move")
            if not all(-MAX_COMPONENT <= c <= MAX_COMPONENT for c in v):
                raise ProgramError(f"{piece}: vector ({v[0]}, {v[1]}) is out of range: each component "
                                   f"must be within -{MAX_COMPONENT}..{MAX_COMPONENT}")
            if v in seen:
                raise ProgramError(f"{piece}: vector ({v[0]}, {v[1]}) is listed twice")
            seen.add(v)

    def component(self) -> Component:
        return make_component(self.mode, list(self.vectors))

    def text(self) -> str:
        return self.mode + ":" + "/".join(f"{dx},{dy}" for dx, dy in self.vectors)


class Roster(dict):
    """Piece letter (upper case) -> Program. An empty roster is the default roster."""

    def validate(self, letters: str) -> None:
        for letter, program in self.items():
            if letter not in letters:
                raise ProgramError(f"roster names unknown piece {letter!r}")
            if not isinstance(program, Program):
                raise ProgramError(f"{letter}: not a program")
            program.validate(letter)

    def text(self) -> str:
        return " ".join(f"{letter}:{self[letter].text()}" for letter in sorted(self))

    def key(self) -> tuple:
        return tuple(sorted(self.items()))

    @classmethod
    def parse(cls, text: str) -> "Roster":
        roster = cls()
        for entry in text.split():
            parts = entry.split(":")
            if len(parts) != 3 or len(parts[0]) != 1:
                raise ProgramError(f"bad roster entry {entry!r} (expected LETTER:mode:dx,dy/...)")
            letter, mode, vecs = parts
            vectors = []
            for v in vecs.split("/"):
                try:
                    dx, dy = (int(c) for c in v.split(","))
                except ValueError:
                    raise ProgramError(f"{letter}: bad vector {v!r} (expected dx,dy)") from None
                vectors.append((dx, dy))
            if letter.upper() in roster:
                raise ProgramError(f"roster lists piece {letter.upper()!r} twice")
            roster[letter.upper()] = Program(mode, tuple(vectors))
        return roster

    def to_data(self) -> dict:
        """The JSON-like mapping `from_data` reads."""
        return {letter: {"mode": p.mode, "vectors": [list(v) for v in p.vectors]} for letter, p in sorted(self.items())}

    @classmethod
    def from_data(cls, data: dict) -> "Roster":
        """From a JSON-like mapping {letter: {"mode": ..., "vectors": [[dx, dy], ...]}}."""
        if not isinstance(data, dict):
            raise ProgramError("a roster is a mapping from piece letters to programs")
        roster = cls()
        for letter, p in data.items():
            if not isinstance(p, dict) or set(p) != {"mode", "vectors"}:
                raise ProgramError(f"{letter}: a program is {{mode, vectors}}")
            try:
                vectors = tuple(tuple(v) for v in p["vectors"])
            except TypeError:
                raise ProgramError(f"{letter}: vectors must be a list of [dx, dy] pairs") from None
            roster[str(letter).upper()] = Program(p["mode"], vectors)
        return roster
