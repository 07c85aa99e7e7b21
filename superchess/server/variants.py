"""The variants the server offers, core and standalone (InterGrid) alike: what a match form and a
board page need to know of each, and the board description the page draws (cells with shapes)."""
from __future__ import annotations

from functools import lru_cache

from ..rules import Board
from ..rules.diagram_rules import DIAGRAM_VARIANT_NAMES
from ..rules.variant import VARIANT_NAMES

# a match (with people or the computer) can be created with any of these
PLAYABLE = VARIANT_NAMES + ("intergrid", "vanguard", "tilingrider")
# multi-move variants whose unfinished turn is the mover's draft (tiling-rider R12): the mover may
# take its moves back, and the opponent and watchers see the turn's start until the turn ends
DRAFTED_TURNS = frozenset({"tilingrider"})
# variants whose legal-move listing is a search (every move listed must start a turn that can be
# completed: tiling-rider R12), which can take tenths of a second in check: their moves are
# processed off the event loop; the others' take at most a few milliseconds and stay on it
SEARCHED_LISTING = frozenset({"tilingrider"})
# the pieces of standalone variants without piece objects, as letter and name (the board page draws
# a piece by its name): Tiling Rider's piece letters (tiling-rider section 1)
# the variants whose pieces the board page names and labels (GET /api/variants/{v}/pieces)
WITH_PIECES = VARIANT_NAMES + DIAGRAM_VARIANT_NAMES + ("tilingrider",)


@lru_cache(maxsize=None)
def variant_of(name: str):
    """The variant object (core `Variant` or a standalone board's), ValueError if unknown."""
    if name not in PLAYABLE:
        raise ValueError(f"unknown variant {name!r}")
    return Board(name).variant


def load_all() -> None:
    """Build every playable variant now, at start-up: the first request that lists them (the match
    form's options) would otherwise stall the event loop for a second or more."""
    for name in PLAYABLE:
        variant_of(name)


def multi_move(variant) -> bool:
    """Does a turn take more than one move (the state then lists each move's captures)?"""
    rule = getattr(variant, "turn_rule", None)
    return rule is not None and rule.max_moves > 1


def drafted_turns(variant) -> bool:
    """Is an unfinished turn private to the mover and retractable (see DRAFTED_TURNS)?"""
    return variant.name in DRAFTED_TURNS


def searched_listing(variant) -> bool:
    """Can listing this variant's legal moves take long (see SEARCHED_LISTING)?"""
    return variant.name in SEARCHED_LISTING


def turn_facts(board) -> dict:
    """What a board with a per-turn move allowance adds to the state (Tiling Rider): the allowance,
    the moves left in the turn, and the aggregates formed, each as its four cells and piece letter."""
    if not hasattr(board, "allowance"):
        return {}
    aggregates = [{"cells": list(board.unit_squares(unit)), "piece": piece.symbol()} for unit, piece in board.aggregates()]
    return {"allowance": board.allowance, "moves_left": board.moves_left, "aggregates": aggregates}


def lists_captures(variant) -> bool:
    """Does the state list each legal move's captures and intermediate cell? Yes where a move can
    take pieces off its destination: multi-move turns (enclosures) or diagram moves (R18)."""
    return multi_move(variant) or getattr(variant, "captures_off_destination", False)


def layout(geometry) -> dict:
    """The board description: each cell's name, shape, centre and size in board units (a square is
    one unit); rectangular boards are all squares, InterGrid adds its intersections."""
    if hasattr(geometry, "layout"):
        return geometry.layout()
    files, ranks = geometry.files, geometry.ranks
    return {"width": files, "height": ranks,
            "cells": [{"name": n, "shape": "square", "x": f + 0.5, "y": r + 0.5, "size": 1.0}
                      for n, (f, r) in zip(geometry.names, geometry.coords)],
            "labels": {"square": {"files": "".join(chr(97 + f) for f in range(files)),
                                  "ranks": [str(r + 1) for r in range(ranks)]}}}


def option(name: str) -> dict:
    """A variant as the match forms list it."""
    v = variant_of(name)
    return {"name": v.name, "title": v.title, "files": v.geometry.files, "ranks": v.geometry.ranks,
            "reprogrammable": v.reprogrammable, "holdings": v.holdings, "setups": bool(v.setup),
            "multi_move": multi_move(v)}


def piece_entries(variant) -> list[dict]:
    """The variant's pieces as the board page knows them (`piece_entry`)."""
    return [piece_entry(p) for p in variant.pieces]


def piece_entry(piece) -> dict:
    """A piece as the board page knows it: FEN letter, name (a drawing is chosen by it) and label,
    the text a piece without a drawing shows (a diagram piece's ID, two letters for some)."""
    return {"letter": piece.letter, "name": piece.name[:1].upper() + piece.name[1:],
            "label": getattr(piece, "id", piece.letter)}
