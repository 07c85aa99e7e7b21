"""The variants the server offers: every variant of the rules registry (`rules.VARIANTS`), what a
match form and a board page need to know of each, and what the server does differently for a
variant according to its registered capabilities."""
from __future__ import annotations

import json
from functools import lru_cache

from ..rules import VARIANTS, Board, Capabilities
from ..rules.core.contract import VariantInfo


def names() -> tuple[str, ...]:
    """Every variant a match (with people or the computer) can be created with, in listing order."""
    return tuple(VARIANTS)


def known(name: str) -> bool:
    return name in VARIANTS


def capabilities(variant: VariantInfo) -> Capabilities:
    """The registered capabilities of a variant the server plays."""
    return VARIANTS[variant.name].capabilities


@lru_cache(maxsize=None)
def variant_of(name: str) -> VariantInfo:
    """The variant description its boards use, ValueError if unknown."""
    return Board(name).variant


def load_all() -> None:
    """Build every playable variant now, at start-up: the first request that lists them (the match
    form's options) would otherwise stall the event loop for a second or more."""
    for name in VARIANTS:
        variant_of(name)


def multi_move(variant: VariantInfo) -> bool:
    """Does a turn take more than one move (the state then lists each move's captures)?"""
    return capabilities(variant).multi_move


def drafted_turns(variant: VariantInfo) -> bool:
    """Is an unfinished turn the mover's draft (tiling-rider R12): the mover may take its moves back,
    and the opponent and watchers see the turn's start until the turn ends?"""
    return capabilities(variant).drafted_turns


def searched_listing(variant: VariantInfo) -> bool:
    """Is listing this variant's legal moves a search (every move listed must start a turn that can
    be completed: tiling-rider R12), which can take tenths of a second in check? Its moves are then
    processed off the event loop; the others' take at most a few milliseconds and stay on it."""
    return capabilities(variant).searched_listing


def turn_facts(board) -> dict:
    """What a board with a per-turn move allowance adds to the state (Tiling Rider): the allowance,
    the moves left in the turn, and the aggregates formed, each as its four cells and piece letter."""
    if not capabilities(board.variant).allowance:
        return {}
    aggregates = [{"cells": list(board.unit_squares(unit)), "piece": piece.symbol()} for unit, piece in board.aggregates()]
    return {"allowance": board.allowance, "moves_left": board.moves_left, "aggregates": aggregates}


def lists_captures(variant: VariantInfo) -> bool:
    """Does the state list each legal move's captures and intermediate cell? Yes where a move can
    take pieces off its destination: multi-move turns (enclosures) or diagram moves (R18)."""
    return capabilities(variant).lists_captures


def vector_pieces(name: str) -> bool:
    """Do the pieces of the variant `name` move by vectors, so that rosters describe them and
    previews show them?"""
    return known(name) and VARIANTS[name].capabilities.vector_pieces


def layout(geometry) -> dict:
    """The board description: each cell's name, shape, centre and size in board units."""
    return geometry.layout()


def option(name: str) -> dict:
    """A variant as the match forms list it."""
    v = variant_of(name)
    caps = VARIANTS[name].capabilities
    return {"name": v.name, "title": v.title, "files": v.geometry.files, "ranks": v.geometry.ranks,
            "reprogrammable": caps.reprogrammable, "holdings": caps.holdings, "setups": caps.setups,
            "multi_move": caps.multi_move, "named_pieces": caps.named_pieces}


def piece_entries(variant: VariantInfo) -> list[dict]:
    """The variant's pieces as the board page knows them (`piece_entry`), one per letter: where two
    types share a letter (InterGrid's square and point armies) the first one names it."""
    entries: dict[str, dict] = {}
    for p in variant.pieces:
        entries.setdefault(p.letter, piece_entry(p))
    return list(entries.values())


def piece_entry(piece) -> dict:
    """A piece as the board page knows it: FEN letter, name (a drawing is chosen by it), label (the
    text a piece without a drawing shows: a diagram piece's ID, two letters for some) and, where the
    variant's data names one, its drawing."""
    entry = {"letter": piece.letter, "name": piece.name[:1].upper() + piece.name[1:], "label": piece.label}
    if piece.drawing:
        entry["drawing"] = piece.drawing
    return entry


def legal_json(board) -> str:
    """The board's legal moves by origin square as the state sends them (JSON text), each as its
    text after the origin: {"h2": ["h3", "h4"], "c15": ["c16q", "c16r"]}. In a variant whose moves
    can capture off their destination (or with multi-move turns) each move is an object that also
    lists the cells it captures and passes: {"to": "d4", "move": "b2d4xc3", "promotion": null,
    "captures": ["c3"], "via": ["c3"]}; ending the turn (`end`) is not listed here but as
    "can_end_turn"."""
    if not lists_captures(board.variant):
        # square names and move tails are letters and digits: joined without a JSON encoder
        return "{" + ",".join(f'"{sq}":["' + '","'.join(tails) + '"]'
                              for sq, tails in board.legal_destinations().items()) + "}"
    names = board.geometry.names
    by_origin: dict[str, list[str]] = {}
    for mv in board.legal_moves:
        if mv.from_cell < 0:  # `end`
            continue
        origin = names[mv.from_cell]  # by name: a variant may give one square several cell numbers
        by_origin.setdefault(origin, []).append(_capturing_move_json(board, mv))
    return "{" + ",".join(f'"{sq}":[{",".join(ms)}]' for sq, ms in by_origin.items()) + "}"


def _capturing_move_json(board, mv) -> str:
    """A move with every cell it captures (enclosures and the edge rule included): not cached, the
    captures depend on the position."""
    return json.dumps({"to": board.geometry.names[mv.to_cell], "move": mv.text,
                       "promotion": mv.promotion.lower() if mv.promotion else None,
                       "captures": [cell for cell, _ in board.captures(mv)],
                       "via": [board.geometry.names[c] for c in mv.via]})
