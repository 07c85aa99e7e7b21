"""The engine layer: evaluation, search, time management, levels and the UCI protocol, over the
rules core (it depends only on superchess.rules)."""
from .play import choose_move, warm_up

__all__ = ["choose_move", "warm_up"]
