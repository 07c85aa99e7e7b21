"""What the profiles and leaderboards read: a player's ratings with their history, their finished
games with what each did to their rating, and the best players of a pool. Read-only queries."""
from __future__ import annotations

from sqlalchemy import and_, or_, select

from . import ratings
from .clock import TIME_CONTROLS
from .store import GameRow, PlayerRow, RatingChangeRow, RatingRow, Store

GAMES_LISTED = 100  # a profile's finished games, most recent first
HISTORY_POINTS = 500  # a profile's rating changes, most recent
LEADERBOARD_SIZE = 50


def profile(store: Store, player: PlayerRow, variant: str | None = None) -> dict:
    """`GET /api/players/{name}`: ratings per pool (with games counted and the rating after each
    rated game), and the finished games (of one variant, if given), most recent first."""
    with store.session() as s:
        rows = s.scalars(select(RatingRow).where(RatingRow.player_id == player.id)
                         .order_by(RatingRow.variant, RatingRow.speed)).all()
        changes = s.scalars(select(RatingChangeRow).where(RatingChangeRow.player_id == player.id)
                            .order_by(RatingChangeRow.at.desc()).limit(HISTORY_POINTS)).all()
        mine = or_(GameRow.player0_id == player.id, GameRow.player1_id == player.id)
        q = (select(GameRow, RatingChangeRow)
             .outerjoin(RatingChangeRow, and_(RatingChangeRow.game_id == GameRow.id,
                                              RatingChangeRow.player_id == player.id))
             .where(mine, GameRow.status == "finished"))
        if variant is not None:
            q = q.where(GameRow.variant == variant)
        games = s.execute(q.order_by(GameRow.updated_at.desc()).limit(GAMES_LISTED)).all()
        opponents = {g.player1_id if g.player0_id == player.id else g.player0_id for g, _ in games}
        names = dict(s.execute(select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(opponents))).all())
    history: dict[tuple[str, str], list] = {}
    for c in reversed(changes):
        history.setdefault((c.variant, c.speed), []).append([c.at, round(c.after)])
    return {"name": player.name, "account": player.password_hash is not None, "bot": player.bot_level is not None,
            "created_at": player.created_at,
            "ratings": [{"variant": r.variant, "speed": r.speed, **ratings.shown(r.rating, r.deviation),
                         "deviation": round(r.deviation), "games": r.games,
                         "history": history.get((r.variant, r.speed), [])} for r in rows],
            "games": [_game_entry(g, c, player.id, names) for g, c in games]}


def _game_entry(g: GameRow, change: RatingChangeRow | None, player_id: int, names: dict[int, str]) -> dict:
    side = 0 if g.player0_id == player_id else 1
    outcome = "draw" if g.winner is None else "win" if g.winner == side else "loss"
    tc = TIME_CONTROLS[g.time_control]
    return {"id": g.id, "variant": g.variant, "time_control": {"id": tc.id, "name": tc.name}, "mode": g.mode,
            "rated": bool(g.rated), "side": side, "opponent": names.get(getattr(g, f"player{side ^ 1}_id")),
            "result": g.result, "termination": g.termination, "outcome": outcome, "ended_at": g.updated_at,
            "rating_change": ratings.side_view(change.after, change.deviation, change.before)["change"]
            if change else None}


def leaderboard(store: Store, pool: ratings.Pool) -> list[dict]:
    """The pool's LEADERBOARD_SIZE best accounts whose rating is not provisional."""
    with store.session() as s:
        rows = s.execute(select(PlayerRow.name, RatingRow)
                         .join(RatingRow, RatingRow.player_id == PlayerRow.id)
                         .where(RatingRow.variant == pool.variant, RatingRow.speed == pool.speed,
                                RatingRow.deviation <= ratings.PROVISIONAL_DEVIATION,
                                PlayerRow.password_hash.is_not(None))
                         .order_by(RatingRow.rating.desc(), PlayerRow.name).limit(LEADERBOARD_SIZE)).all()
    return [{"rank": i + 1, "name": name, "rating": round(r.rating), "deviation": round(r.deviation), "games": r.games}
            for i, (name, r) in enumerate(rows)]
