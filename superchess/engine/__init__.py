"""The engine layer: evaluation, search, time management, levels and the UCI protocol, over the
rules layer (it depends only on superchess.rules)."""
from .families import ENGINES, RETRACT, choose_move, warm_up
from .native_search import StopRequest

__all__ = ["ENGINES", "RETRACT", "StopRequest", "choose_move", "warm_up"]
