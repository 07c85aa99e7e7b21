"""The game page's piece guide: every piece type of a game with where it moves from the centre of
an empty board (the rules' own movement: the board contract's `lone_piece_reach`; a program's,
`rules.game.preview.empty_board_destinations`), each side's
program where the viewer may see it, and the rules a diagram cannot show (guide.toml). Pure rules
work: the server runs it off the event loop."""
from __future__ import annotations

import tomllib
from importlib import resources

from ..rules import Board, Roster, get_variant
from ..rules.game.preview import empty_board_destinations
from . import variants

NOTES: dict[str, list[str]] = tomllib.loads(resources.files(__package__).joinpath("guide.toml").read_text())["notes"]


def centre(geometry) -> str:
    """The square a diagram's piece stands on: the middle of the board (h8 on 16x16, d4 on 8x8)."""
    return f"{chr(ord('a') + (geometry.files - 1) // 2)}{(geometry.ranks + 1) // 2}"


def guide(variant_name: str, rosters: list[dict | None], secret: list[bool]) -> dict:
    """The guide for a viewer who sees `rosters` (None: the default, or `secret` when it is hidden).
    Each piece: its diagram's destinations with the default program (the board's
    `lone_piece_reach` from the centre), and per side the program this viewer may see with its own
    destinations (vector variants), or "secret"."""
    board = Board(variant_name)
    variant = board.variant
    vectors = variants.vector_pieces(variant_name)
    geo = variant.geometry
    origin = centre(geo)
    programs = [Roster.from_data(r or {}) if vectors else Roster() for r in rosters]

    pieces = []
    for entry in variants.piece_entries(variant):
        letter = entry["letter"]
        sides = []
        for side in (0, 1):
            data = (rosters[side] or {}).get(letter)
            if secret[side]:
                sides.append("secret")
            elif data and vectors:
                cells = empty_board_destinations(get_variant(variant_name), programs[side], letter, geo.parse_cell(origin))
                sides.append({"program": data, "destinations": [geo.name(c) for c in cells]})
            else:
                sides.append(None)
        pieces.append({**entry, "destinations": board.lone_piece_reach(letter, origin), "sides": sides})
    return {"variant": variant_name, "files": geo.files, "ranks": geo.ranks, "origin": origin,
            "pieces": pieces, "notes": NOTES.get(variant_name, [])}

