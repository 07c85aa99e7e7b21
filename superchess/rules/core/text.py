"""What every family's position text is made of: the error it raises, one reader for a rank of
piece letters and runs of empty cells, one for a counter field, and the writer of a placement."""
from __future__ import annotations

import re
from collections.abc import Mapping


class FenError(ValueError):
    """A malformed or impossible position text."""


#: The most digits of a counter field (half-move clock, move number, quiet turns): larger numbers
#: are refused before they are converted.
MAX_COUNTER_DIGITS = 9
_RANK_TOKEN = re.compile(r"([0-9]+)|(.)", re.S)  # a run of empty cells (ASCII digits) or one letter


def parse_rank(text: str, width: int, codes: Mapping[str, int], label: str, cells: str = "squares",
               error: type[FenError] = FenError) -> list[int]:
    """The piece codes of one rank of a placement (0 = empty), read from its letters and its runs of
    empty cells written as numbers; `error` (a FenError) unless it has exactly `width` cells. A run
    is checked against the room left on the rank before anything is allocated for it."""
    row: list[int] = []
    for token in _RANK_TOKEN.finditer(text):
        run = token[1]
        if run and run[0] == "0":
            raise error(f"{label}: bad empty-{cells[:-1]} count {run!r}")
        n = (int(run) if len(run) <= len(str(width)) else width + 1) if run else 1
        if n > width - len(row):
            raise error(f"{label} has more than {width} {cells}")
        if run:
            row.extend([0] * n)
            continue
        code = codes.get(token[2])
        if code is None:
            raise error(f"{label}: unknown piece letter {token[2]!r} (known: {''.join(sorted(codes))})")
        row.append(code)
    if len(row) != width:
        raise error(f"{label} has {len(row)} {cells}, expected {width}")
    return row


def parse_counter(text: str, name: str, low: int = 0, error: type[FenError] = FenError) -> int:
    """A counter field (ASCII digits, at least `low`); `error` (a FenError) naming the field otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_COUNTER_DIGITS or int(text) < low:
        raise error(f"bad {name} {text!r} (a whole number, at least {low}, at most {MAX_COUNTER_DIGITS} digits)")
    return int(text)


_EMPTY = "\0"  # marks an empty cell while a placement is written; runs of it become their lengths
_MARKED: dict[int, tuple[list[str], list[str]]] = {}  # id(symbol table) -> (it, it with empties marked)


def placement_text(rows, symbol: list[str] | None = None) -> str:
    """A FEN placement field from rows of piece codes (0 = empty), the top row first, each piece
    written as `symbol[code]` (without `symbol` the rows hold the letters, "" = empty), each run of
    empty cells as its length."""
    if symbol is None:
        text = "/".join("".join(x or _EMPTY for x in row) for row in rows)
    else:
        hit = _MARKED.get(id(symbol))  # the entry holds the table, so its id is not reused meanwhile
        if hit is None or hit[0] is not symbol:
            hit = _MARKED[id(symbol)] = (symbol, [x or _EMPTY for x in symbol])
        get = hit[1].__getitem__
        text = "/".join("".join(map(get, row)) for row in rows)
    for n in range(max(map(len, text.split("/"))), 0, -1):  # the longest runs first, so each run is written whole
        run = _EMPTY * n
        if run in text:
            text = text.replace(run, str(n))
    return text
