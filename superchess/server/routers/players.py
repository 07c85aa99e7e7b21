"""Players in public: a profile (ratings per variant and speed with their history, finished games)
and the leaderboard of a rating pool (`server/standings.py`)."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException

from .. import ratings, standings, variants
from ..clock import SPEEDS
from ..services import ServicesDep

router = APIRouter()


@router.get("/api/players/{name}")
def player_profile(name: str, s: ServicesDep, variant: str | None = None) -> dict:
    """`variant`: list only the finished games of that variant."""
    if variant is not None and not variants.known(variant):
        raise HTTPException(400, f"unknown variant {variant[:20]!r}")
    player = s.store.player_by_name(name, any_case=True)
    if player is None:
        raise HTTPException(404, f"no player named {name[:40]!r}")
    return standings.profile(s.store, player, variant)


@router.get("/api/leaderboard/{variant}/{speed}")
def leaderboard(variant: str, speed: str, s: ServicesDep) -> dict:
    """The top players (not provisional) of a rating variant (a variant, or `<variant>-private`)
    and speed class."""
    if not ratings.is_pool(variant, speed):
        raise HTTPException(404, f"no rating pool {variant[:30]!r} / {speed[:12]!r}: the variants are "
                                 f"{', '.join(ratings.rating_variants())}, the speeds {', '.join(SPEEDS)}")
    return {"variant": variant, "speed": speed, "players": standings.leaderboard(s.store, ratings.Pool(variant, speed))}
