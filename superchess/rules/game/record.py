"""Game records: a game with its headers and result, exported and re-imported as PGN-style text.

Moves are written in the readable notation (docs/notation.md: a turn is one word, its moves joined
by `,`) or in the project's machine move text (a turn is its moves as words), numbered in pairs; a
record in either form (or both mixed) reads back to the same moves. Headers carry the variant, the
start position when it is not the variant's array, the rosters when reprogrammed, the result and how
the game ended.
"""
from __future__ import annotations

import re

from ..core.contract import Move, VariantInfo
from ..core.outcome import Outcome, Termination
from ..core.program import Roster
from ..core.turns import END_TURN
from ..registry import Board
from . import notation

_HEADER_RE = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_STANDARD = ("Event", "Site", "Date", "Round", "Player1", "Player2", "Result")


class RecordError(ValueError):
    """A game record that cannot be read or an action the game's state does not allow."""


class Game:
    def __init__(self, variant: str | VariantInfo = "super16", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None, headers: dict[str, str] | None = None) -> None:
        self.board = Board(variant, fen, rosters)
        self.headers = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                        "Player1": "?", "Player2": "?"}
        self.headers.update(headers or {})
        self.outcome: Outcome | None = None
        self._start = self.board.turn, self.board.fullmove_number  # for numbering the moves

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
    def export(self, readable: bool = False) -> str:
        """The record as text: its moves in the readable notation, or (by default) in machine text."""
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
        side, number = self._start
        # a multi-move turn is its moves, e.g. "e2e4 G1E2", or one readable word "e4,NE2" (intergrid)
        for turn in notation.readable_turns(b) if readable else b.turn_texts():
            if side == 0:
                words.append(f"{number}.")
            elif not words:
                words.append(f"{number}...")
            words.append(turn)
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
                game._play_word(re.sub(r"^\d+\.+", "", tok))
            except ValueError as e:
                raise RecordError(f"move {len(game.board.move_stack) + 1}: {e}") from None
        game._end_turn()  # a record holds whole turns: the last one ends where the text does
        game._apply_result(result, termination)
        return game

    def _play_word(self, word: str) -> None:
        """Play a word of the movetext: a machine move text (a move of the turn, `_play_in_turn`), or
        a whole turn in the readable notation (its moves joined by `,`)."""
        if notation.TURN_SEPARATOR not in word and self._is_machine_text(word):
            self._play_in_turn(word)
            return
        self._end_turn()
        for text in word.split(notation.TURN_SEPARATOR):
            self._require_running()
            self.play(notation.read(self.board, text))
        self._end_turn()

    def _is_machine_text(self, text: str) -> bool:
        """Is `text` the machine text of a legal move here, or of the next turn's once this one ends?"""
        b = self.board
        if text in {mv.text for mv in b.legal_moves}:
            return True
        if not b.moves_in_turn or END_TURN not in {mv.text for mv in b.legal_moves}:
            return False
        b.push_text(END_TURN)
        try:
            return text in {mv.text for mv in b.legal_moves}
        finally:
            b.pop()

    def _end_turn(self) -> None:
        """End the turn in progress, if any (where it may end)."""
        if self.board.moves_in_turn and not self.outcome and END_TURN in {mv.text for mv in self.board.legal_moves}:
            self.play(END_TURN)

    def _play_in_turn(self, text: str) -> None:
        """Play a recorded move; in a multi-move turn, a move that cannot continue the turn ends it
        first (a record writes a turn as its moves, without the end-of-turn move)."""
        b = self.board
        if b.moves_in_turn and text not in {mv.text for mv in b.legal_moves}:
            self.play(END_TURN)
        self.play(text)

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
