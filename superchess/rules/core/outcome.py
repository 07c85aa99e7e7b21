"""How a game ended."""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    CHECKMATE = "checkmate"
    KING_CAPTURED = "king captured"  # intergrid R7: a King taken within a turn
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient material"
    REPETITION = "repetition"
    MOVE_RULE = "move rule"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME = "time"
    ABORTED = "aborted"


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: int | None  # 0 = Player 1, 1 = Player 2, None = draw (or aborted)
    claimed: bool = False  # a draw that a player claimed rather than one that happened by itself

    def result(self) -> str:
        if self.termination is Termination.ABORTED:
            return "*"
        return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[self.winner]
