"""Reprogrammed movement (Super Chess 16x16 R13-R17): programs, rosters, validation, text.

A program is a set of vectors written from the owner's side plus one mode (jump, step, slide).
A roster maps piece letters to programs; a letter without a program moves by its default.
Text form, used in game records: entries separated by spaces, each `LETTER:mode:dx,dy/dx,dy/...`,
e.g. `N:jump:1,2/2,1 Q:step:0,4`.
"""
from __future__ import annotations

import re
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass

from .pieces import Component, Vector, make_component

PROGRAM_MODES = ("jump", "step", "slide")
MAX_VECTORS = 64
MAX_COMPONENT = 15


class ProgramError(ValueError):
    """An invalid program or roster; the message names the piece and the bad vector."""


_SHOWN = reprlib.Repr()  # user input named in a message: short, however large or deep it is
_SHOWN.maxstring = _SHOWN.maxother = 30
_SHOWN.maxlevel = 2


def shown(value: object) -> str:
    """A short repr of user input for an error message."""
    return _SHOWN.repr(value)


@dataclass(frozen=True)
class Program:
    mode: str
    vectors: tuple[Vector, ...]

    def validate(self, piece: str = "piece") -> None:
        if not isinstance(self.mode, str) or self.mode not in PROGRAM_MODES:
            raise ProgramError(f"{piece}: unknown mode {shown(self.mode)} (use jump, step or slide)")
        if not isinstance(self.vectors, tuple) or not 1 <= len(self.vectors) <= MAX_VECTORS:
            count = len(self.vectors) if isinstance(self.vectors, tuple) else shown(self.vectors)
            raise ProgramError(f"{piece}: a program needs 1 to {MAX_VECTORS} vectors, not {count}")
        seen = set()
        for v in self.vectors:
            if (not isinstance(v, tuple) or len(v) != 2
                    or not all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
                raise ProgramError(f"{piece}: vector {shown(v)} is not a pair of integers")
            if v == (0, 0):
                raise ProgramError(f"{piece}: vector (0, 0) is not a move")
            if not all(-MAX_COMPONENT <= c <= MAX_COMPONENT for c in v):
                raise ProgramError(f"{piece}: vector ({shown(v[0])}, {shown(v[1])}) is out of range: each component "
                                   f"must be within -{MAX_COMPONENT}..{MAX_COMPONENT}")
            if v in seen:
                raise ProgramError(f"{piece}: vector ({v[0]}, {v[1]}) is listed twice")
            seen.add(v)

    def component(self) -> Component:
        return make_component(self.mode, list(self.vectors))

    def text(self) -> str:
        return self.mode + ":" + "/".join(f"{dx},{dy}" for dx, dy in self.vectors)


class Roster(dict):
    """Piece letter (upper case) -> Program. An empty roster is the default roster. `parse` and
    `from_data` give only rosters of one-letter keys and valid programs (ProgramError otherwise);
    `validate` checks the letters against a variant's."""

    def validate(self, letters: Iterable[str]) -> None:
        """ProgramError naming the first key that is not exactly one of `letters` (the variant's
        reprogrammable pieces, one letter each) or whose program is invalid."""
        allowed = set(letters)
        for letter, program in self.items():
            if not isinstance(letter, str) or letter not in allowed:
                raise ProgramError(f"roster names unknown piece {shown(letter)} "
                                   f"(the pieces are {', '.join(sorted(allowed))})")
            if not isinstance(program, Program):
                raise ProgramError(f"{letter}: not a program")
            program.validate(letter)

    def text(self) -> str:
        return " ".join(f"{letter}:{self[letter].text()}" for letter in sorted(self))

    def key(self) -> tuple:
        return tuple(sorted(self.items()))

    def _add(self, letter: object, program: Program) -> None:
        """Enter a program read from text or data under its letter (upper case), both checked."""
        if not isinstance(letter, str) or len(letter) != 1 or not (letter.isascii() and letter.isalpha()):
            raise ProgramError(f"a roster's key is one piece letter, not {shown(letter)}")
        letter = letter.upper()
        if letter in self:
            raise ProgramError(f"roster lists piece {letter!r} twice")
        program.validate(letter)
        self[letter] = program

    @classmethod
    def parse(cls, text: str) -> "Roster":
        """From the text form `N:jump:1,2/2,1 Q:step:0,4`."""
        if not isinstance(text, str):
            raise ProgramError("a roster's text form is a string")
        roster = cls()
        for entry in text.split():
            parts = entry.split(":")
            if len(parts) != 3:
                raise ProgramError(f"bad roster entry {shown(entry)} (expected LETTER:mode:dx,dy/...)")
            letter, mode, vecs = parts
            pairs = vecs.split("/")
            if len(pairs) > MAX_VECTORS:
                raise ProgramError(f"{shown(letter)}: a program needs 1 to {MAX_VECTORS} vectors, not {len(pairs)}")
            vectors = []
            for v in pairs:
                numbers = v.split(",")
                if len(numbers) != 2 or not all(_COMPONENT.fullmatch(c) for c in numbers):
                    raise ProgramError(f"{shown(letter)}: bad vector {shown(v)} (expected dx,dy)")
                vectors.append((int(numbers[0]), int(numbers[1])))
            roster._add(letter, Program(mode, tuple(vectors)))
        return roster

    def to_data(self) -> dict:
        """The JSON-like mapping `from_data` reads."""
        return {letter: {"mode": p.mode, "vectors": [list(v) for v in p.vectors]} for letter, p in sorted(self.items())}

    @classmethod
    def from_data(cls, data: object) -> "Roster":
        """From a JSON-like mapping {letter: {"mode": ..., "vectors": [[dx, dy], ...]}}."""
        if not isinstance(data, dict):
            raise ProgramError("a roster is a mapping from piece letters to programs")
        roster = cls()
        for letter, p in data.items():
            name = shown(letter)
            if not isinstance(p, dict) or set(p) != {"mode", "vectors"}:
                raise ProgramError(f"{name}: a program is {{mode, vectors}}")
            vectors = p["vectors"]
            if not isinstance(vectors, (list, tuple)):
                raise ProgramError(f"{name}: vectors must be a list of [dx, dy] pairs")
            if len(vectors) > MAX_VECTORS:
                raise ProgramError(f"{name}: a program needs 1 to {MAX_VECTORS} vectors, not {len(vectors)}")
            if not all(isinstance(v, (list, tuple)) for v in vectors):
                raise ProgramError(f"{name}: vectors must be a list of [dx, dy] pairs")
            roster._add(letter, Program(p["mode"], tuple(tuple(v) for v in vectors)))
        return roster


_COMPONENT = re.compile(r"-?[0-9]{1,3}")  # a vector component in the text form (validate checks its range)
