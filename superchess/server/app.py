"""HTTP and websocket endpoints (see docs/protocol.md)."""
from __future__ import annotations

import json
import re
import time
from contextlib import asynccontextmanager
from pathlib import Path
from concurrent.futures import Executor
from typing import Callable

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from fastapi import Depends, FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from ..rules import VARIANT_NAMES, Board, FenError, get_variant
from ..rules.preview import empty_board_destinations, roster_problem, start_moves, validate_roster
from ..rules.program import ProgramError, Roster
from ..rules.record import Game
from ..rules.setups import random_substitution, substitution_fen
from . import variants
from .ai import LEVELS, AIPlayers, default_executor
from .clock import TIME_CONTROLS
from .hub import Connection, Hub
from .limits import BodyLimit
from .live import ACTIONS, MODES, ActionError
from .store import GameRow, PlayerRow, SavedRosterRow, Store, new_token

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 16384  # bytes of one websocket message (a full roster fits)
MAX_BODY = 16384  # bytes of one HTTP request body
GUEST_COOKIE, SESSION_COOKIE = "sc_guest", "sc_session"
NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,20}\Z")
COLOUR_RE = re.compile(r"#[0-9a-fA-F]{6}\Z")
_hasher = PasswordHasher()  # argon2id


class Credentials(BaseModel):
    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


class ColourIn(BaseModel):
    colour: str = Field(max_length=7)


class MatchIn(BaseModel):
    variant: str = Field("super16", max_length=20)
    time_control: str = Field("blitz-3+2", max_length=30)
    creator_side: int = Field(0, ge=0, le=1)
    fen: str | None = Field(None, max_length=1000)
    invite: str | None = Field(None, max_length=40)
    mode: str = Field("default", max_length=10)
    roster: dict | None = None  # Symmetric mode: the proposed roster
    # variants with generated set-ups (Superchess): a seed, or the substitutes square by square;
    # neither: a random set-up
    setup_seed: str | None = Field(None, max_length=40)
    setup_squares: dict[str, str] | None = None


class SetupIn(BaseModel):
    variant: str = Field("superchess", max_length=20)
    seed: str | None = Field(None, max_length=40)
    squares: dict[str, str] | None = None


class ComputerMatchIn(MatchIn):
    level: int = Field(3, ge=1, le=8)


class PreviewIn(BaseModel):
    variant: str = Field("super16", max_length=20)
    roster: dict = Field(default_factory=dict)
    letter: str = Field(max_length=2)
    square: str = Field(max_length=4)


class SavedRosterIn(BaseModel):
    variant: str = Field("super16", max_length=20)
    roster: dict


def _roster(data: dict | None, variant_name: str) -> Roster:
    """A roster from its JSON form, validated for the variant; HTTP 400 naming the problem."""
    try:
        roster = Roster.from_data(data or {})
        validate_roster(get_variant(variant_name), roster)
    except ProgramError as e:
        raise HTTPException(400, str(e)) from None
    return roster


def _setup(variant_name: str, seed: str | None, squares: dict[str, str] | None) -> dict:
    """A generated start position: explicit squares, else from the seed, else random."""
    v = get_variant(variant_name)
    if not v.setup:
        raise HTTPException(400, f"{variant_name} has no generated set-ups")
    choice = squares if squares else random_substitution(v, seed or None)
    try:
        return {"fen": substitution_fen(v, choice), "squares": choice}
    except ValueError as e:
        raise HTTPException(400, f"bad set-up: {e}") from None


def _saved(row: SavedRosterRow) -> dict:
    return {"name": row.name, "variant": row.variant, "roster": Roster.parse(row.roster).to_data()}


def _me(p: PlayerRow) -> dict:
    return {"id": p.id, "name": p.name, "account": p.password_hash is not None, "colour": p.colour}


def create_app(data_dir: str | Path = "data", db_url: str | None = None,
               now: Callable[[], int] | None = None,
               ai_executor: Callable[[], Executor] = default_executor) -> FastAPI:
    """The server application. `now` (milliseconds) can be injected so tests drive the clocks;
    `ai_executor` makes the pool the computer thinks in (a process pool by default)."""
    now = now or (lambda: int(time.time() * 1000))
    store = Store(db_url) if db_url else Store.in_folder(data_dir)
    hub = Hub(store, now)
    hub.ai = AIPlayers(hub, ai_executor)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub.resume()
        yield
        hub.ai.close()

    app = FastAPI(title="superchess", lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(x for x in first.get("loc", ())[1:] if isinstance(x, str)) or "request body"
        return JSONResponse({"detail": f"bad {where}: {first.get('msg', 'invalid')}"}, status_code=400)

    app.add_middleware(BodyLimit, limit=MAX_BODY)

    # Endpoints that touch live games are `async` so they run on the event loop, never in a worker
    # thread beside the game processing.

    # -- identity ---------------------------------------------------------------------------
    def identity(request: Request, response: Response) -> PlayerRow:
        for cookie in (SESSION_COOKIE, GUEST_COOKIE):
            token = request.cookies.get(cookie)
            if token:
                p = store.session_player(token)
                if p:
                    return p
        for _ in range(5):
            name = f"Guest-{new_token(4)[:6]}"
            if not store.player_by_name(name):
                break
        p = store.add_player(name, None, now())
        response.set_cookie(GUEST_COOKIE, store.add_session(p.id, now()), max_age=10 * 365 * 86400,
                            httponly=True, samesite="lax")
        return p

    def ws_identity(ws: WebSocket) -> PlayerRow | None:
        for cookie in (SESSION_COOKIE, GUEST_COOKIE):
            token = ws.cookies.get(cookie)
            if token:
                p = store.session_player(token)
                if p:
                    return p
        return None

    @app.get("/api/me")
    def me(p: PlayerRow = Depends(identity)) -> dict:
        return _me(p)

    @app.post("/api/register")
    def register(body: Credentials, response: Response) -> dict:
        if not NAME_RE.match(body.name) or body.name.lower().startswith("guest"):
            raise HTTPException(400, "names are 3-20 letters, digits, _ or -, and may not start with 'guest'")
        if len(body.password) < 8:
            raise HTTPException(400, "passwords need at least 8 characters")
        if store.player_by_name(body.name, any_case=True):
            raise HTTPException(409, f"the name {body.name} is taken")
        p = store.add_player(body.name, _hasher.hash(body.password), now())
        response.set_cookie(SESSION_COOKIE, store.add_session(p.id, now()), httponly=True, samesite="lax")
        return _me(p)

    @app.post("/api/login")
    def login(body: Credentials, response: Response) -> dict:
        p = store.player_by_name(body.name)
        try:
            if p is None or p.password_hash is None:
                raise VerificationError()
            _hasher.verify(p.password_hash, body.password)
        except VerificationError:
            raise HTTPException(401, "wrong name or password") from None
        response.set_cookie(SESSION_COOKIE, store.add_session(p.id, now()), httponly=True, samesite="lax")
        return _me(p)

    @app.post("/api/logout")
    def logout(request: Request, response: Response) -> dict:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            store.drop_session(token)
        response.delete_cookie(SESSION_COOKIE)
        return {"ok": True}

    @app.put("/api/me/colour")
    def set_colour(body: ColourIn, p: PlayerRow = Depends(identity)) -> dict:
        if not COLOUR_RE.match(body.colour):
            raise HTTPException(400, "a colour is written #rrggbb")
        p = store.update_player(p.id, colour=body.colour.lower())
        hub.colour_changed(p.id, p.colour)
        return _me(p)

    # -- matches ----------------------------------------------------------------------------
    @app.get("/api/options")
    def options() -> dict:
        return {"variants": [variants.option(v) for v in variants.PLAYABLE],
                "time_controls": [{"id": tc.id, "name": tc.name, "initial": tc.initial_ms // 1000,
                                   "increment": tc.increment_ms // 1000, "daily": tc.daily}
                                  for tc in TIME_CONTROLS.values()],
                "levels": list(LEVELS)}

    def _new_game(body: MatchIn, creator: PlayerRow, invited: PlayerRow | None = None) -> GameRow:
        """A validated match (HTTP 400 naming what is wrong), not yet stored."""
        if body.variant not in variants.PLAYABLE:
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        if body.time_control not in TIME_CONTROLS:
            raise HTTPException(400, f"unknown time control {body.time_control!r}")
        fen = body.fen.strip() if body.fen and body.fen.strip() else None
        if body.mode == "prelude" and (fen or body.setup_seed or body.setup_squares):
            raise HTTPException(400, "in a prelude the players choose the set-up: give no FEN, seed or squares")
        if fen is None and variants.variant_of(body.variant).setup and body.mode != "prelude":
            fen = _setup(body.variant, body.setup_seed, body.setup_squares)["fen"]
        elif body.setup_seed or body.setup_squares:
            raise HTTPException(400, "a set-up choice needs a variant with generated set-ups and no FEN")
        try:
            Board(body.variant, fen)
        except FenError as e:
            raise HTTPException(400, f"bad start position: {e}") from None
        if body.mode not in MODES:
            raise HTTPException(400, f"unknown mode {body.mode!r} (default, private, symmetric or prelude)")
        if body.mode in ("private", "symmetric") and not variants.variant_of(body.variant).reprogrammable:
            raise HTTPException(400, f"{body.variant} pieces cannot be reprogrammed: use the default mode")
        if body.mode == "prelude" and not variants.variant_of(body.variant).setup:
            raise HTTPException(400, f"{body.variant} has no prelude: use the default mode")
        proposal = None
        if body.mode == "symmetric":
            proposal = _roster(body.roster, body.variant)
            if not proposal:
                raise HTTPException(400, "symmetric mode needs a roster to propose")
            for side in (0, 1):
                problem = roster_problem(variants.variant_of(body.variant), proposal, side, fen)
                if problem:
                    raise HTTPException(400, problem)
        elif body.roster:
            raise HTTPException(400, "only symmetric mode takes a roster at creation")
        t = now()
        tc = TIME_CONTROLS[body.time_control]
        start = tc.per_move_ms if tc.daily else tc.initial_ms
        row = GameRow(id=new_token(9), variant=body.variant, start_fen=fen, time_control=tc.id, status="waiting",
                      creator_id=creator.id, creator_side=body.creator_side,
                      invited_id=invited.id if invited else None,
                      invite_token=new_token(), remaining0=start, remaining1=start, version=0,
                      created_at=t, updated_at=t, mode=body.mode,
                      roster0=proposal.text() if proposal else None, roster1=proposal.text() if proposal else None)
        setattr(row, f"player{body.creator_side}_id", creator.id)
        return row

    @app.post("/api/matches")
    def create_match(body: MatchIn, p: PlayerRow = Depends(identity)) -> dict:
        invited = None
        if body.invite:
            invited = store.player_by_name(body.invite.strip())
            if invited is None or invited.password_hash is None:
                raise HTTPException(404, f"no account named {body.invite.strip()!r}")
            if invited.id == p.id:
                raise HTTPException(400, "you cannot invite yourself")
        row = _new_game(body, p, invited)
        store.add_game(row)
        return {"game_id": row.id, "invite_url": f"/invite/{row.invite_token}"}

    @app.post("/api/matches/computer")
    async def play_computer(body: ComputerMatchIn, p: PlayerRow = Depends(identity)) -> dict:
        if body.invite:
            raise HTTPException(400, "a game against the computer invites nobody")
        row = _new_game(body, p)
        bot = store.bot(body.level, now())
        setattr(row, f"player{body.creator_side ^ 1}_id", bot.id)
        store.add_game(row)
        await hub.start_game(row.id, row.player0_id, row.player1_id)
        return {"game_id": row.id}

    def _invitation(row: GameRow | None, p: PlayerRow) -> dict:
        if row is None:
            raise HTTPException(404, "no such invitation")
        creator = store.player(row.creator_id)
        return {"game_id": row.id, "variant": row.variant, "title": variants.variant_of(row.variant).title,
                "time_control": TIME_CONTROLS[row.time_control].name, "creator": creator.name,
                "your_side": row.creator_side ^ 1, "fen": row.start_fen, "status": row.status,
                "yours": row.creator_id == p.id, "mode": row.mode,
                "roster": Roster.parse(row.roster0 or "").to_data() if row.mode == "symmetric" else None}

    async def _accept(row: GameRow | None, p: PlayerRow) -> dict:
        if row is None:
            raise HTTPException(404, "no such invitation")
        if row.creator_id == p.id:
            raise HTTPException(400, "this is your own invitation; send the link to your opponent")
        if row.invited_id is not None and row.invited_id != p.id:
            raise HTTPException(403, "this invitation is for another player")
        players = [None, None]
        players[row.creator_side] = row.creator_id
        players[row.creator_side ^ 1] = p.id
        try:
            await hub.start_game(row.id, players[0], players[1])
        except ActionError as e:
            raise HTTPException(409, str(e)) from None
        return {"game_id": row.id}

    async def _decline(row: GameRow | None, p: PlayerRow) -> dict:
        if row is None:
            raise HTTPException(404, "no such invitation")
        if row.invited_id is not None and row.invited_id != p.id and row.creator_id != p.id:
            raise HTTPException(403, "this invitation is for another player")
        try:
            await hub.decline(row.id)
        except ActionError as e:
            raise HTTPException(409, str(e)) from None
        return {"ok": True}

    @app.get("/api/invitations/{token}")
    def invitation(token: str, p: PlayerRow = Depends(identity)) -> dict:
        return _invitation(store.game_by_token(token), p)

    @app.post("/api/invitations/{token}/accept")
    async def accept_token(token: str, p: PlayerRow = Depends(identity)) -> dict:
        return await _accept(store.game_by_token(token), p)

    @app.post("/api/invitations/{token}/decline")
    async def decline_token(token: str, p: PlayerRow = Depends(identity)) -> dict:
        return await _decline(store.game_by_token(token), p)

    def _addressed(game_id: str, p: PlayerRow) -> GameRow:
        row = store.game(game_id)
        if row is None or row.invited_id != p.id:
            raise HTTPException(404, "no invitation for you in that game")
        return row

    @app.post("/api/games/{game_id}/accept")
    async def accept_addressed(game_id: str, p: PlayerRow = Depends(identity)) -> dict:
        return await _accept(_addressed(game_id, p), p)

    @app.post("/api/games/{game_id}/decline")
    async def decline_addressed(game_id: str, p: PlayerRow = Depends(identity)) -> dict:
        return await _decline(_addressed(game_id, p), p)

    @app.get("/api/games")
    async def my_games(p: PlayerRow = Depends(identity)) -> dict:
        out = {"ongoing": [], "finished": [], "invitations": []}
        for row in store.games_of(p.id):
            g = hub.game(row.id)
            side = g.side_of(p.id)
            opp_id = row.player1_id if side == 0 else row.player0_id if side == 1 else row.creator_id
            opponent = store.player(opp_id).name if opp_id else None
            summary = {"id": row.id, "variant": row.variant, "time_control": TIME_CONTROLS[row.time_control].name,
                       "opponent": opponent, "your_side": side, "status": g.row.status,
                       "your_turn": side is not None and (
                           g.row.status == "active" and side == g.game.board.turn
                           or g.row.status == "setup" and not getattr(g.row, f"submitted{side}")),
                       "result": g.row.result, "termination": g.row.termination,
                       "invite_url": f"/invite/{row.invite_token}" if row.creator_id == p.id else None}
            if g.row.status in ("active", "setup"):
                out["ongoing"].append(summary)
            elif g.row.status == "waiting":
                if row.creator_id == p.id or row.invited_id == p.id:
                    out["invitations"].append(summary)
            else:
                out["finished"].append(summary)
        return out

    @app.get("/api/games/{game_id}")
    async def game_state(game_id: str, p: PlayerRow = Depends(identity)) -> dict:
        g = hub.game(game_id)
        if g is None:
            raise HTTPException(404, "no such game")
        return hub.state(g, p.id, now())

    @app.get("/api/games/{game_id}/record")
    async def game_record(game_id: str) -> PlainTextResponse:
        g = hub.game(game_id)
        if g is None:
            raise HTTPException(404, "no such game")
        if g.row.mode == "private" and g.row.status in ("waiting", "setup", "active"):
            raise HTTPException(409, "the record of a Private game is available when the game ends")
        record = Game.parse(g.game.export())  # a copy to put the players' names on
        if variants.drafted_turns(record.board.variant):  # an unfinished turn is the mover's alone
            finished = len(g.game.board.move_stack) - g.game.board.moves_in_turn
            while len(record.board.move_stack) > finished:  # (reading it back may have ended it)
                record.board.pop()
        record.headers.update({"Site": "superchess", "Player1": g.names.get(g.row.player0_id) or "?",
                               "Player2": g.names.get(g.row.player1_id) or "?",
                               "Date": time.strftime("%Y.%m.%d", time.gmtime(g.row.created_at / 1000)),
                               "TimeControl": g.tc.name})
        return PlainTextResponse(record.export(), headers={
            "Content-Disposition": f'attachment; filename="superchess-{game_id}.pgn"'})

    @app.post("/api/setups/preview")
    def setup_preview(body: SetupIn) -> dict:
        """The "new shuffle" control: a set-up (random, from a seed, or square by square) to show
        before the match is created."""
        if body.variant not in VARIANT_NAMES:
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        return _setup(body.variant, body.seed, body.squares)

    # -- rosters (R13-R17) ------------------------------------------------------------------
    @app.get("/api/variants/{variant}/layout")
    def variant_layout(variant: str) -> dict:
        """The board description the page draws: cells with their shapes and centres."""
        if variant not in variants.PLAYABLE:
            raise HTTPException(404, f"unknown variant {variant!r}")
        return variants.layout(variants.variant_of(variant).geometry)

    @app.get("/api/variants/{variant}/pieces")
    def variant_pieces(variant: str) -> dict:
        if variant not in variants.WITH_PIECES:
            raise HTTPException(404, f"unknown variant {variant!r}")
        v = variants.variant_of(variant)
        return {"variant": v.name, "files": v.geometry.files, "ranks": v.geometry.ranks,
                "reprogrammable": v.reprogrammable, "start_fen": v.start_fen,
                "pieces": variants.piece_entries(v)}

    @app.post("/api/rosters/preview")
    def preview(body: PreviewIn) -> dict:
        if body.variant not in VARIANT_NAMES:
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        v = get_variant(body.variant)
        roster = _roster(body.roster, body.variant)
        letter = body.letter.upper()
        if letter not in v.by_letter:
            raise HTTPException(400, f"{v.name} has no piece {body.letter!r}")
        try:
            cell = v.geometry.parse_cell(body.square)
        except ValueError as e:
            raise HTTPException(400, str(e)) from None
        name = v.geometry.name
        problem = roster_problem(v, roster, 0) or roster_problem(v, roster, 1)
        start = {} if problem else {name(fr): [name(c) for c in tos]
                                    for fr, tos in start_moves(v, roster, letter).items()}
        return {"empty": [name(c) for c in empty_board_destinations(v, roster, letter, cell)],
                "start": start, "problem": problem}

    def _account(p: PlayerRow) -> PlayerRow:
        if p.password_hash is None:
            raise HTTPException(403, "guests keep their rosters in this browser; log in to keep them on the server")
        return p

    @app.get("/api/rosters")
    def saved_rosters(p: PlayerRow = Depends(identity)) -> dict:
        return {"rosters": [_saved(r) for r in store.rosters_of(_account(p).id)]}

    @app.put("/api/rosters/{name:path}")
    def save_roster(name: str, body: SavedRosterIn, p: PlayerRow = Depends(identity)) -> dict:
        _account(p)
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise HTTPException(400, "a roster name has 1 to 40 characters")
        if body.variant not in VARIANT_NAMES:
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        roster = _roster(body.roster, body.variant)
        return _saved(store.save_roster(p.id, name, body.variant, roster.text(), now()))

    @app.delete("/api/rosters/{name:path}")
    def delete_roster(name: str, p: PlayerRow = Depends(identity)) -> dict:
        if not store.delete_roster(_account(p).id, name.strip()):
            raise HTTPException(404, f"no saved roster named {name.strip()!r}")
        return {"ok": True}

    # -- websocket --------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        player = ws_identity(ws)
        await ws.accept()
        if hub.game(game_id) is None:
            await ws.send_text(json.dumps({"type": "error", "message": "no such game"}))
            await ws.close(code=4404)
            return
        conn = Connection(ws.send_text, player.id if player else None)
        conn.start()
        hub.join(game_id, conn)
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    text = (msg.get("bytes") or b"").decode("utf-8", "replace")
                error = await _handle(game_id, conn, text)
                if error:
                    conn.send({"type": "error", "message": error})
        finally:
            hub.leave(game_id, conn)

    async def _handle(game_id: str, conn: Connection, text: str) -> str | None:
        if len(text.encode()) > MAX_MESSAGE:
            return f"message too large (at most {MAX_MESSAGE} bytes)"
        try:
            data = json.loads(text)
        except ValueError:
            return "malformed message: not JSON"
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            return 'malformed message: expected an object with a "type"'
        if data["type"] == "sync":
            conn.send(hub.message(hub.game(game_id), conn.player_id, now()))
            return None
        if data["type"] not in ACTIONS:
            return f"unknown message type {data['type'][:40]!r}"
        try:
            await hub.act(game_id, conn.player_id, data["type"], data)
        except (ActionError, LookupError) as e:
            return str(e)
        return None

    # -- pages ------------------------------------------------------------------------------
    pages = WEB / "pages"
    app.mount("/static", StaticFiles(directory=WEB / "static", check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(pages / "index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> FileResponse:
        return FileResponse(pages / "game.html")

    @app.get("/rosters", include_in_schema=False)
    def rosters_page() -> FileResponse:
        return FileResponse(pages / "rosters.html")

    @app.get("/invite/{token}", include_in_schema=False)
    def invite_page(token: str) -> FileResponse:
        return FileResponse(pages / "invite.html")

    return app
