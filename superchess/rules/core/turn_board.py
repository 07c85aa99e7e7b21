"""The board of a variant whose turns hold several moves, over a family's states and the turn
mechanism of `turns.py`.

`TurnBoard` keeps what every such variant shares beyond `contract.BaseBoard`: the stack of states
(one per move pushed), how many moves of the turn each state has seen, push / pop (pop retracts
within the unfinished turn), move text, the mid-turn position text ("FEN of the turn's start | the
moves so far"), whole turns as text. A subclass says how its family's states and moves look (the
abstract hooks below).
With a turn model over one mutable position (`turns.TurnModel.undo`), the stack holds that position
once per move and `pop` takes the move (and the turn end it caused) back on it.
"""
from __future__ import annotations

from abc import abstractmethod
from typing import Any

from .contract import BaseBoard, IllegalMoveError, Move
from .text import FenError
from .turns import END_TURN, TurnSearch

#: The end-of-turn move as a public `Move`.
END_MOVE = Move(-1, -1, None, END_TURN)


class TurnBoard(BaseBoard):
    """A position with its move history, for multi-move turns. Subclasses define the hooks and the
    rest of `BaseBoard`'s abstract methods."""

    # -- hooks ------------------------------------------------------------------------------
    @abstractmethod
    def _turn_search(self, state: Any) -> TurnSearch:
        """The turn rule and model that judge moves in `state` (the rule may change per turn)."""

    @abstractmethod
    def _side(self, state: Any) -> int:
        """0 = White (Player 1), 1 = Black: the player of `state`'s turn."""

    @abstractmethod
    def _public(self, move: Any) -> Move:
        """The public `Move` of a family's move (its text the variant's move text)."""

    @abstractmethod
    def _reference(self, move: Move) -> Any:
        """The family's move for a legal public `Move` in the current state."""

    @abstractmethod
    def _start_text(self, state: Any) -> str:
        """The position text of a turn-start state."""

    @abstractmethod
    def _parse_start(self, text: str) -> Any:
        """A turn-start state from its position text; FenError if it is bad."""

    # -- set-up -----------------------------------------------------------------------------
    def _set_up(self, text: str) -> None:
        """Start from position text, mid-turn when it carries ` | ` and the moves of the turn so far;
        FenError (the reader's own subclass where it has one) when the text is bad."""
        start_text, _, moves_text = text.partition("|")
        try:
            self._states = [self._parse_start(start_text.strip())]
        except FenError as e:
            raise type(e)(f"bad {self.variant.name} position: {e}") from None
        self._made = [0]  # moves made in the current turn, after each push
        self._stack: list[Move] = []  # every move pushed, those of a mid-turn start position first
        self._base = 0
        self._legal_cache: tuple[Any, list[Move]] | None = None  # keyed by the state object and version
        self._version = 0  # pushes and pops so far: a mutable position stays the same object
        words = moves_text.split()
        for i, word in enumerate(words):
            try:
                self.push_text(word)
            except IllegalMoveError as e:
                raise FenError(f"bad {self.variant.name} position: {e}") from None
            if not self.moves_in_turn and i + 1 < len(words):
                raise FenError(f"bad {self.variant.name} position: the moves after '|' are those of one turn, "
                               f"and {word!r} ended it")
        self._base = len(self._stack)

    # -- state ------------------------------------------------------------------------------
    @property
    def _state(self) -> Any:
        return self._states[-1]

    @property
    @abstractmethod
    def position(self) -> Any:
        """The current position on the family's core (what the engine searches; make/unmake on it
        are undone by the board's next use)."""

    def engine_position(self) -> Any:
        """The current position itself (`position`)."""
        return self.position

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the starting position (each turn's moves and `end` moves)."""
        return self._stack[self._base:]

    @property
    def turn(self) -> int:
        """The side to move: 0 = White (Player 1), 1 = Black; it changes when the turn ends."""
        return self._side(self._state)

    @property
    def moves_in_turn(self) -> int:
        """Moves already made in the current turn (0 at a turn's start)."""
        return self._made[-1]

    def _turn_start(self) -> int:
        return len(self._states) - 1 - self.moves_in_turn

    def fen(self) -> str:
        """The turn's start position; mid-turn followed by ` | ` and the moves made so far."""
        start = self._turn_start()
        text = self._start_text(self._states[start])
        if start < len(self._states) - 1:
            text += " | " + " ".join(m.text for m in self._stack[start:])
        return text

    def copy(self) -> TurnBoard:
        b = type(self)(self.variant.name, self.starting_fen)
        for mv in self.move_stack:
            b.push(mv)
        return b

    # -- moves ------------------------------------------------------------------------------
    def _legal_list(self) -> list[Move]:
        # the moves that can continue the turn (each starts a legal completion), then `end`
        key = (self._state, self._version)
        if self._legal_cache is None or self._legal_cache[0][0] is not key[0] or self._legal_cache[0][1] != key[1]:
            moves, may_end = self._turn_search(self._state).continuations(
                self._state, self.moves_in_turn, self.turn)
            legal = sorted((self._public(m) for m in moves), key=lambda mv: mv.text)
            self._legal_cache = (key, legal + ([END_MOVE] if may_end else []))
        return self._legal_cache[1]

    def parse_move(self, text: str) -> Move:
        """The legal move written `text`, or IllegalMoveError."""
        text = text.strip()
        for mv in self._legal_list():
            if mv.text == text:
                return mv
        raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")

    def _legal_instance(self, move: Move) -> Move | None:
        return next((mv for mv in self._legal_list() if mv == move), None)

    def _play(self, move: Move) -> None:
        search = self._turn_search(self._state)
        model = search.model
        state = self._state if move == END_MOVE else model.play(self._state, self._reference(move))
        made = self.moves_in_turn + 1
        if move == END_MOVE or made >= search.rule.max_moves:
            state, made = model.end_turn(state), 0
        self._states.append(state)
        self._made.append(made)
        self._stack.append(move)
        self._version += 1

    def pop(self) -> Move:
        """Take back the last move (within the turn, or the last move of the previous turn)."""
        if len(self._stack) == self._base:
            raise IndexError("no move to take back")
        model = self._turn_search(self._state).model
        state = self._states.pop()
        if self._made.pop() == 0:
            model.undo(state)  # the turn end this move caused
        move = self._stack.pop()
        if move != END_MOVE:
            model.undo(state)
        self._version += 1
        return move

    def turn_texts(self) -> list[str]:
        """The game's turns as text, each its moves in order (the last one may be unfinished)."""
        out: list[str] = []
        for j in range(self._base, len(self._stack)):
            mv = self._stack[j]
            if mv == END_MOVE:
                continue
            if self._made[j] == 0 or not out:
                out.append(mv.text)
            else:
                out[-1] += " " + mv.text
        return out
