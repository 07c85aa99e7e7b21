"""Game records: a game with its headers and result, exported and re-imported as PGN-style text.

Moves are written in the project's move text, numbered in pairs; headers carry the variant, the
start position when it is not the variant's array, the rosters when reprogrammed, the result and how
the game ended.
"""
from __future__ import annotations

import re

from .board import Board, Move
from .outcome import Outcome, Termination
from .program import Roster
from .variant import Variant

_HEADER_RE = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_STANDARD = ("Event", "Site", "Date", "Round", "Player1", "Player2", "Result")


class RecordError(ValueError):
    """A game record that cannot be read or an action the game's state does not allow."""


class Game:
    def __init__(self, variant: str | Variant = "super16", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None, headers: dict[str, str] | None = None) -> None:
        self.board = Board(variant, fen, rosters)
        self.headers = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                        "Player1": "?", "Player2": "?"}
        self.headers.update(headers or {})
        self.outcome: Outcome | None = None

    # -- playing ----------------------------------------------------------------------------
    def _require_running(self) -> None:
        if self.outcome:
            raise RecordError(f"the game is over ({self.outcome.termination.value})")

    def play(self, move: str | Move) -> Move:
        """Play a move (or its text); the game ends by itself on checkmate and automatic draws."""
        self._require_running()
        if isinstance(move, str):
            move = self.board.push_text(move)
        else:
            self.board.push(move)
        self.outcome = self.board.outcome()
        return move

    def resign(self, side: int) -> None:
        self._require_running()
        self.outcome = Outcome(Termination.RESIGNATION, side ^ 1)

    def agree_draw(self) -> None:
        self._require_running()
        self.outcome = Outcome(Termination.AGREEMENT, None)

    def claim_draw(self) -> None:
        """The side to move claims a draw (move rule or repetition); RecordError if it may not."""
        self._require_running()
        outcome = self.board.outcome(claim_draw=True)
        if not outcome or not outcome.claimed:
            raise RecordError("no draw can be claimed in this position")
        self.outcome = outcome

    def flag(self, side: int) -> None:
        """`side` ran out of time: it loses, unless the opponent can never mate (super16 R12)."""
        self._require_running()
        winner = None if self.board.has_insufficient_material(side ^ 1) else side ^ 1
        self.outcome = Outcome(Termination.TIME, winner)

    def abort(self) -> None:
        self._require_running()
        self.outcome = Outcome(Termination.ABORTED, None)

    def result(self) -> str:
        return self.outcome.result() if self.outcome else "*"

    # -- text -------------------------------------------------------------------------------
    def export(self) -> str:
        b = self.board
        headers = dict(self.headers)
        headers["Variant"] = b.variant.name
        if b.starting_fen != b.variant.start_fen:
            headers["SetUp"] = "1"
            headers["FEN"] = b.starting_fen
        for side, roster in enumerate(b.rosters):
            if roster:
                headers[f"Roster{side + 1}"] = roster.text()
        headers["Result"] = self.result()
        if self.outcome:
            headers["Termination"] = self.outcome.termination.value + (" claim" if self.outcome.claimed else "")
        order = [k for k in _STANDARD if k in headers] + [k for k in headers if k not in _STANDARD]
        lines = [f'[{k} "{_escape(headers[k])}"]' for k in order]
        words = []
        side, number = _start_side_and_number(b.starting_fen)
        for mv in b.move_stack:
            if side == 0:
                words.append(f"{number}.")
            elif not words:
                words.append(f"{number}...")
            words.append(mv.text)
            if side == 1:
                number += 1
            side ^= 1
        words.append(self.result())
        return "\n".join(lines) + "\n\n" + _wrap(words) + "\n"

    @classmethod
    def parse(cls, text: str) -> "Game":
        headers: dict[str, str] = {}
        body = []
        for line in text.strip().splitlines():
            line = line.strip()
            if line.startswith("["):
                m = _HEADER_RE.fullmatch(line)
                if not m:
                    raise RecordError(f"bad header line {line!r}")
                headers[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            else:
                body.append(line)
        variant = headers.pop("Variant", "chess")
        rosters = (Roster.parse(headers.pop("Roster1", "")), Roster.parse(headers.pop("Roster2", "")))
        fen = headers.pop("FEN", None)
        headers.pop("SetUp", None)
        result = headers.pop("Result", "*")
        termination = headers.pop("Termination", None)
        try:
            game = cls(variant, fen, rosters if any(rosters) else None, headers)
        except ValueError as e:
            raise RecordError(f"bad game record: {e}") from None
        movetext = re.sub(r"\{[^}]*\}", " ", " ".join(body))
        tokens = movetext.split()
        for tok in tokens:
            if re.fullmatch(r"\d+\.+", tok):
                continue
            if tok in RESULTS:
                if tok != result:
                    raise RecordError(f"result {tok} in the moves differs from the Result header {result}")
                continue
            try:
                game.play(re.sub(r"^\d+\.+", "", tok))
            except ValueError as e:
                raise RecordError(f"move {len(game.board.move_stack) + 1}: {e}") from None
        game._apply_result(result, termination)
        return game

    def _apply_result(self, result: str, termination: str | None) -> None:
        if result not in RESULTS:
            raise RecordError(f"bad result {result!r}")
        if self.outcome:  # ended by the rules: the record must agree
            if result != self.outcome.result():
                raise RecordError(f"the moves end in {self.outcome.termination.value} "
                                  f"({self.outcome.result()}), but the record says {result}")
            return
        if result == "*" and termination is None:
            return
        name, claimed = (termination or "").removesuffix(" claim"), (termination or "").endswith(" claim")
        try:
            term = Termination(name)
        except ValueError:
            raise RecordError(f"bad termination {termination!r}") from None
        winner = {"1-0": 0, "0-1": 1}.get(result)
        if claimed:
            self.claim_draw()
            if self.outcome.termination is not term:
                raise RecordError(f"the claimable draw is {self.outcome.termination.value}, not {name}")
        elif term in (Termination.RESIGNATION, Termination.TIME, Termination.AGREEMENT, Termination.ABORTED):
            self.outcome = Outcome(term, winner)
        else:
            raise RecordError(f"the position does not end in {name}")
        if self.outcome.result() != result:
            raise RecordError(f"{name} cannot give the result {result}")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _start_side_and_number(fen: str) -> tuple[int, int]:
    fields = fen.split()
    return (0 if fields[1] == "w" else 1), int(fields[-1])  # the full-move number ends every position text


def _wrap(words: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(lines)
