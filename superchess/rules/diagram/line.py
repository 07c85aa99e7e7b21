"""Interactive Diagram import: parse a diagram line (as on chessvariants.com) into a plain variant
description. Pure module; nothing is registered here.

Syntax read from the Vanguard seed (../shared/seeds/002_...):
    files=16 ranks=16 promoZone=1 promoChoice=*Q holdingsType=1 ... royal=10 royal=21
    pawn:P:fmWfcFifmR4:pawn:a3,b3,...,p3,,a14,...,p14 morph=N knight:N:WNC:knight:b2,o2,,b15,o15 ...
Tokens are separated by white space.
  * ``key=value``: a setting. ``morph=ID`` belongs to the piece defined just before it (the type
    it promotes to); every other key is global. ``royal=n`` (repeatable) marks the n-th piece
    (1-based, in definition order) royal. ``files``/``ranks`` default to 8. ``promoZone`` (depth
    of the promotion zone, default 1), ``promoChoice`` (piece IDs, optionally prefixed by flag
    characters such as ``*``, kept verbatim in ``promo_flags``) and ``maxPromote`` (how many
    pieces, counted from the first defined, promote to promoChoice; default 1) are parsed; the
    rest is kept in ``settings`` as text.
  * ``name:ID:XBetza:image:squares``: a piece. Squares are comma separated; items before the
    first empty item are White's, items after it Black's (``h1,,h16``). Without an empty item
    Black gets White's squares mirrored top to bottom. ``a2-h2`` is a range along a rank or
    file. An empty ID means the name's first letter, upper case. Extra ``:fields`` are kept.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .xbetza import XBetzaError
from .xbetza import parse as parse_xbetza

_SQ = re.compile(r"([a-z])([1-9][0-9]*)\Z")
_PER_PIECE = {"morph"}


class DiagramError(ValueError):
    pass


@dataclass(frozen=True)
class DiagramPiece:
    index: int                 # 1-based, in definition order (as royal=n counts)
    name: str
    id: str
    xbetza: str
    image: str
    white: tuple[str, ...]     # start squares, in the order written
    black: tuple[str, ...]
    royal: bool = False
    morph: str | None = None   # ID of the type it promotes to
    extra: tuple[str, ...] = ()


@dataclass(frozen=True)
class DiagramLine:
    files: int
    ranks: int
    pieces: tuple[DiagramPiece, ...]
    promo_zone: int = 1
    promo_choice: tuple[str, ...] = ()
    promo_flags: str = ""
    max_promote: int = 1
    settings: tuple[tuple[str, str], ...] = field(default=())

    def piece(self, pid: str) -> DiagramPiece:
        for p in self.pieces:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def array(self) -> dict[str, tuple[int, str]]:
        """{square: (side, piece ID)} of the start position, side 0 White, 1 Black."""
        out: dict[str, tuple[int, str]] = {}
        for p in self.pieces:
            for side, squares in ((0, p.white), (1, p.black)):
                for s in squares:
                    out[s] = (side, p.id)
        return out

    @property
    def royals(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.pieces if p.royal)

    @property
    def choice_promoters(self) -> tuple[str, ...]:
        """IDs of the pieces that promote to a piece of promoChoice, the player's choice: the first
        ``maxPromote`` pieces defined (the Interactive Diagram's convention: the pawn is defined
        first), except royal pieces and pieces with a fixed ``morph=`` type; none without
        promoChoice."""
        if not self.promo_choice:
            return ()
        return tuple(p.id for p in self.pieces[:self.max_promote] if p.morph is None and not p.royal)


def _int(key: str, value: str, lo: int, hi: int) -> int:
    if not value.isdigit() or not lo <= int(value) <= hi:
        raise DiagramError(f"setting {key}={value!r}: expected a whole number from {lo} to {hi}")
    return int(value)


def _square(text: str, files: int, ranks: int, piece: str) -> tuple[int, int]:
    m = _SQ.match(text)
    if not m:
        raise DiagramError(f"piece {piece!r}: bad square {text!r}")
    f, r = ord(m.group(1)) - 97, int(m.group(2)) - 1
    if not (f < files and r < ranks):
        raise DiagramError(f"piece {piece!r}: square {text!r} is off the {files}x{ranks} board")
    return f, r


def _name(f: int, r: int) -> str:
    return chr(97 + f) + str(r + 1)


def _squares(items: list[str], files: int, ranks: int, piece: str) -> list[str]:
    out = []
    for item in items:
        if "-" in item:
            a, _, b = item.partition("-")
            (fa, ra), (fb, rb) = _square(a, files, ranks, piece), _square(b, files, ranks, piece)
            if fa == fb:
                out += [_name(fa, r) for r in range(min(ra, rb), max(ra, rb) + 1)]
            elif ra == rb:
                out += [_name(f, ra) for f in range(min(fa, fb), max(fa, fb) + 1)]
            else:
                raise DiagramError(f"piece {piece!r}: range {item!r} is not along a rank or file")
        else:
            out.append(_name(*_square(item, files, ranks, piece)))
    return out


def parse_diagram(line: str) -> DiagramLine:
    """Parse one Interactive Diagram line; DiagramError (a ValueError) names what is wrong."""
    if not isinstance(line, str) or not line.strip():
        raise DiagramError("empty diagram line")
    settings: list[tuple[str, str]] = []
    royals: list[int] = []
    raw_pieces: list[dict] = []
    for tok in line.split():
        if ":" in tok:
            fields = tok.split(":")
            if len(fields) < 5:
                raise DiagramError(f"piece {tok!r}: expected name:ID:XBetza:image:squares "
                                   f"({len(fields)} fields)")
            raw_pieces.append({"fields": fields, "morph": None})
        elif "=" in tok:
            key, _, value = tok.partition("=")
            if not key:
                raise DiagramError(f"setting {tok!r} has no name")
            if key in _PER_PIECE:
                if not raw_pieces:
                    raise DiagramError(f"{tok!r} comes before any piece")
                raw_pieces[-1]["morph"] = value
            elif key == "royal":
                royals.append(_int(key, value, 1, 10**6))
            else:
                settings.append((key, value))
        else:
            raise DiagramError(f"token {tok!r} is neither key=value nor a piece name:ID:XBetza:image:squares")
    conf = dict(settings)
    files = _int("files", conf.get("files", "8"), 1, 26)
    ranks = _int("ranks", conf.get("ranks", "8"), 1, 99)
    promo_zone = _int("promoZone", conf.get("promoZone", "1"), 0, ranks)
    max_promote = _int("maxPromote", conf.get("maxPromote", "1"), 0, 10**6)
    choice_text = conf.get("promoChoice", "")
    m = re.fullmatch(r"([^A-Za-z]*)((?:[A-Z][a-z]*)*)", choice_text)
    if not m:
        raise DiagramError(f"promoChoice={choice_text!r}: expected flag characters then piece IDs")
    promo_flags, promo_choice = m.group(1), tuple(re.findall(r"[A-Z][a-z]*", m.group(2)))
    if not raw_pieces:
        raise DiagramError("no pieces defined (name:ID:XBetza:image:squares)")
    for n in royals:
        if n > len(raw_pieces):
            raise DiagramError(f"royal={n}: only {len(raw_pieces)} pieces are defined")
    pieces: list[DiagramPiece] = []
    seen_ids: dict[str, str] = {}
    occupied: dict[str, str] = {}
    for idx, rp in enumerate(raw_pieces, 1):
        name, pid, xb, image, sqtext, *extra = rp["fields"]
        if not name:
            raise DiagramError(f"piece #{idx} has no name")
        pid = pid or name[0].upper()
        if not re.fullmatch(r"[A-Z][A-Za-z]*", pid):
            raise DiagramError(f"piece {name!r}: ID {pid!r} must start with an upper-case letter")
        if pid in seen_ids:
            raise DiagramError(f"piece {name!r}: ID {pid!r} is already used by {seen_ids[pid]!r}")
        seen_ids[pid] = name
        if not xb:
            raise DiagramError(f"piece {name!r} has no XBetza move")
        try:
            parse_xbetza(xb)
        except XBetzaError as e:
            raise DiagramError(f"piece {name!r}: {e}") from None
        items = sqtext.split(",") if sqtext else []
        if "" in items:
            cut = items.index("")
            white_items, black_items = items[:cut], items[cut + 1:]
            if "" in black_items:
                raise DiagramError(f"piece {name!r}: more than one empty item in squares {sqtext!r}")
            white = _squares(white_items, files, ranks, name)
            black = _squares(black_items, files, ranks, name)
        else:
            white = _squares(items, files, ranks, name)
            black = [s[0] + str(ranks + 1 - int(s[1:])) for s in white]
        for side, sqs in (("White", white), ("Black", black)):
            for s in sqs:
                if s in occupied:
                    raise DiagramError(f"piece {name!r}: {side} square {s} is already taken by {occupied[s]}")
                occupied[s] = f"{side} {name!r}"
        pieces.append(DiagramPiece(idx, name, pid, xb, image, tuple(white), tuple(black), idx in royals,
                                   rp["morph"], tuple(extra)))
    ids = {p.id for p in pieces}
    for p in pieces:
        if p.morph is not None and p.morph not in ids:
            raise DiagramError(f"piece {p.name!r}: morph={p.morph!r} names no defined piece")
    for c in promo_choice:
        if c not in ids:
            raise DiagramError(f"promoChoice={choice_text!r}: {c!r} names no defined piece")
    return DiagramLine(files, ranks, tuple(pieces), promo_zone, promo_choice, promo_flags, max_promote,
                          tuple(settings))


def diagram_line(text: str) -> str:
    """The first line of `text` that looks like a diagram (starts with ``files=``)."""
    for line in text.splitlines():
        if line.strip().startswith("files="):
            return line.strip()
    raise DiagramError("no line starting with 'files=' found")
