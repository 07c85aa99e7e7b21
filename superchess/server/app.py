"""HTTP and websocket endpoints (see docs/protocol.md)."""
from __future__ import annotations

import asyncio
import json
import re
import time
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from concurrent.futures import Executor
from typing import Callable, Iterable

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from ..rules import Board, FenError, ProgramError, Roster, get_variant
from ..rules.game.preview import preview as preview_answer
from ..rules.game.preview import roster_problem, validate_roster
from ..rules.game.record import Game
from ..rules.game.setups import random_substitution, substitution_fen
from . import variants
from .accounts import Accounts, Visitor, client_of, me
from .ai import LEVELS, AIPlayers, default_executor
from .clock import TIME_CONTROLS
from .hub import Connection, Hub
from .limits import BodyLimit
from .live import ACTIONS, MODES, ActionError
from .passwords import Passwords
from .security import BrowserGuard
from .store import GameRow, PlayerRow, SavedRosterRow, Store, new_token
from .throttle import Throttle, refuse_if_throttled

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 16384  # bytes of one websocket message (a full roster fits)
MAX_BODY = 16384  # bytes of one HTTP request body
COLOUR_RE = re.compile(r"#[0-9a-fA-F]{6}\Z")
# roster previews per client address (each may compile a roster's tables: seconds of a worker
# process), per window in ms; the roster editor asks at most a few a second, debounced
PREVIEWS_PER_CLIENT = (60, 60_000)
PURGE_EVERY_S = 3600  # expired sessions and idle guests without games are dropped this often


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
    v = variants.variant_of(variant_name)
    if not v.setup:
        raise HTTPException(400, f"{variant_name} has no generated set-ups")
    choice = squares if squares else random_substitution(v, seed or None)
    try:
        return {"fen": substitution_fen(v, choice), "squares": choice}
    except ValueError as e:
        raise HTTPException(400, f"bad set-up: {e}") from None


def _public_record(text: str, finished: int, headers: dict[str, str]) -> str:
    """A game's record as anyone may download it: with the players' names, and without a drafted
    turn's unfinished part (tiling-rider R12: it is the mover's alone)."""
    record = Game.parse(text)
    if variants.drafted_turns(record.board.variant):
        while len(record.board.move_stack) > finished:  # (reading it back may have ended the turn)
            record.board.pop()
    record.headers.update(headers)
    return record.export()


def _playable_start(board: Board) -> None:
    """HTTP 400 if the game would be over before its first move (checkmate, stalemate, a dead
    position): such a game could never be played."""
    outcome = board.outcome()
    if outcome:
        raise HTTPException(400, f"the start position is already over ({outcome.termination.value.replace('_', ' ')}): "
                                 "choose a position with a move to play")


def _stored_roster(text: str | None) -> tuple[dict | None, str | None]:
    """A stored roster in its JSON form, or None and why it cannot be read (stored by an earlier,
    laxer version): such a row must not break the lists and pages that show it."""
    try:
        return Roster.parse(text or "").to_data(), None
    except ProgramError as e:
        return None, f"this roster cannot be read ({e})"


def _saved(row: SavedRosterRow) -> dict:
    roster, problem = _stored_roster(row.roster)
    return {"name": row.name, "variant": row.variant, "roster": roster, **({"problem": problem} if problem else {})}


def create_app(data_dir: str | Path = "data", db_url: str | None = None,
               now: Callable[[], int] | None = None,
               ai_executor: Callable[[], Executor] = default_executor,
               allowed_origins: Iterable[str] = (), passwords: Passwords | None = None) -> FastAPI:
    """The server application. `now` (milliseconds) can be injected so tests drive the clocks
    and the throttles' windows; `ai_executor` makes the pool the computer thinks in (a process
    pool by default); `allowed_origins` are origins besides the server's own that browsers may
    act from (security.py); `passwords` hashes and checks passwords (argon2id defaults)."""
    now = now or (lambda: int(time.time() * 1000))
    store = Store(db_url) if db_url else Store.in_folder(data_dir)
    hub = Hub(store, now)
    hub.ai = AIPlayers(hub, ai_executor)
    passwords = passwords or Passwords()
    accounts = Accounts(store, now, passwords)
    previews = Throttle(*PREVIEWS_PER_CLIENT, now)

    async def purge_regularly() -> None:
        while True:
            await asyncio.sleep(PURGE_EVERY_S)
            await asyncio.to_thread(store.purge, now())

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        variants.load_all()
        store.purge(now())  # before serving: nothing waits for it
        hub.resume()  # last: the games' clocks run from the end of the start-up
        purging = asyncio.create_task(purge_regularly())
        yield
        purging.cancel()
        with suppress(asyncio.CancelledError):
            await purging
        hub.ai.close()
        hub.offload.close()
        passwords.close()

    app = FastAPI(title="superchess", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(x for x in first.get("loc", ())[1:] if isinstance(x, str)) or "request body"
        return JSONResponse({"detail": f"bad {where}: {first.get('msg', 'invalid')}"}, status_code=400)

    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(BrowserGuard, allowed_origins=allowed_origins)  # outermost: also on 413s

    # Endpoints that touch live games are `async` so they run on the event loop, never in a worker
    # thread beside the game processing.

    # -- identity (accounts.py) --------------------------------------------------------------
    app.include_router(accounts.router())

    @app.put("/api/me/colour")
    async def set_colour(body: ColourIn, who: Visitor = Depends(accounts.visitor)) -> dict:
        if not COLOUR_RE.match(body.colour):
            raise HTTPException(400, "a colour is written #rrggbb")
        p = store.update_player(who.player_or_guest().id, colour=body.colour.lower())
        hub.colour_changed(p.id, p.colour)
        return me(p)

    # -- matches ----------------------------------------------------------------------------
    @app.get("/api/options")
    def options() -> dict:
        return {"variants": [variants.option(v) for v in variants.names()],
                "time_controls": [{"id": tc.id, "name": tc.name, "initial": tc.initial_ms // 1000,
                                   "increment": tc.increment_ms // 1000, "daily": tc.daily}
                                  for tc in TIME_CONTROLS.values()],
                "levels": list(LEVELS)}

    def _new_game(body: MatchIn, creator: Visitor, invited: PlayerRow | None = None) -> GameRow:
        """A validated match (HTTP 400 naming what is wrong), not yet stored; a creator without an
        identity gets one (a guest) once the match is valid."""
        if not variants.known(body.variant):
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
            start = Board(body.variant, fen)
        except FenError as e:
            raise HTTPException(400, f"bad start position: {e}") from None
        _playable_start(start)
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
            _playable_start(Board(body.variant, fen, (proposal, proposal)))
        elif body.roster:
            raise HTTPException(400, "only symmetric mode takes a roster at creation")
        creator_id = creator.player_or_guest().id
        t = now()
        tc = TIME_CONTROLS[body.time_control]
        start = tc.per_move_ms if tc.daily else tc.initial_ms
        row = GameRow(id=new_token(9), variant=body.variant, start_fen=fen, time_control=tc.id, status="waiting",
                      creator_id=creator_id, creator_side=body.creator_side,
                      invited_id=invited.id if invited else None,
                      invite_token=new_token(), remaining0=start, remaining1=start, version=0,
                      created_at=t, updated_at=t, mode=body.mode,
                      roster0=proposal.text() if proposal else None, roster1=proposal.text() if proposal else None)
        setattr(row, f"player{body.creator_side}_id", creator_id)
        return row

    @app.post("/api/matches")
    async def create_match(body: MatchIn, who: Visitor = Depends(accounts.visitor)) -> dict:
        invited = None
        if body.invite:
            invited = store.player_by_name(body.invite.strip())
            if invited is None or invited.password_hash is None:
                raise HTTPException(404, f"no account named {body.invite.strip()!r}")
            if invited.id == who.id:
                raise HTTPException(400, "you cannot invite yourself")
        row = await hub.offload.run(_new_game, body, who, invited)
        store.add_game(row)
        return {"game_id": row.id, "invite_url": f"/invite/{row.invite_token}"}

    @app.post("/api/matches/computer")
    async def play_computer(body: ComputerMatchIn, who: Visitor = Depends(accounts.visitor)) -> dict:
        if body.invite:
            raise HTTPException(400, "a game against the computer invites nobody")
        row = await hub.offload.run(_new_game, body, who)
        bot = store.bot(body.level, now())
        setattr(row, f"player{body.creator_side ^ 1}_id", bot.id)
        store.add_game(row)
        await hub.start_game(row.id, row.player0_id, row.player1_id)
        return {"game_id": row.id}

    def _invitation(row: GameRow | None, viewer_id: int | None) -> dict:
        if row is None:
            raise HTTPException(404, "no such invitation")
        creator = store.player(row.creator_id)
        return {"game_id": row.id, "variant": row.variant, "title": variants.variant_of(row.variant).title,
                "time_control": TIME_CONTROLS[row.time_control].name, "creator": creator.name,
                "your_side": row.creator_side ^ 1, "fen": row.start_fen, "status": row.status,
                "yours": row.creator_id == viewer_id, "mode": row.mode,
                "roster": _stored_roster(row.roster0)[0] if row.mode == "symmetric" else None}

    async def _accept(row: GameRow | None, who: Visitor) -> dict:
        if row is None:
            raise HTTPException(404, "no such invitation")
        if row.creator_id == who.id:
            raise HTTPException(400, "this is your own invitation; send the link to your opponent")
        if row.invited_id is not None and row.invited_id != who.id:
            raise HTTPException(403, "this invitation is for another player")
        problem = _stored_roster(row.roster0)[1] or _stored_roster(row.roster1)[1]
        if problem:
            raise HTTPException(409, f"{problem}: this invitation cannot be accepted")
        if row.status != "waiting":  # (checked again under the game's lock) before making a guest
            raise HTTPException(409, "this invitation is no longer open")
        players = [None, None]
        players[row.creator_side] = row.creator_id
        players[row.creator_side ^ 1] = who.player_or_guest().id
        try:
            await hub.start_game(row.id, players[0], players[1])
        except ActionError as e:
            raise HTTPException(409, str(e)) from None
        return {"game_id": row.id}

    async def _decline(row: GameRow | None, viewer_id: int | None) -> dict:
        if row is None:
            raise HTTPException(404, "no such invitation")
        if row.invited_id is not None and viewer_id not in (row.invited_id, row.creator_id):
            raise HTTPException(403, "this invitation is for another player")
        try:
            await hub.decline(row.id)
        except ActionError as e:
            raise HTTPException(409, str(e)) from None
        return {"ok": True}

    @app.get("/api/invitations/{token}")
    def invitation(token: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        return _invitation(store.game_by_token(token), who.id)

    @app.post("/api/invitations/{token}/accept")
    async def accept_token(token: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        return await _accept(store.game_by_token(token), who)

    @app.post("/api/invitations/{token}/decline")
    async def decline_token(token: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        return await _decline(store.game_by_token(token), who.id)

    def _addressed(game_id: str, who: Visitor) -> GameRow:
        row = store.game(game_id)
        if row is None or who.id is None or row.invited_id != who.id:
            raise HTTPException(404, "no invitation for you in that game")
        return row

    @app.post("/api/games/{game_id}/accept")
    async def accept_addressed(game_id: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        return await _accept(_addressed(game_id, who), who)

    @app.post("/api/games/{game_id}/decline")
    async def decline_addressed(game_id: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        return await _decline(_addressed(game_id, who), who.id)

    @app.get("/api/games")
    async def my_games(who: Visitor = Depends(accounts.visitor)) -> dict:
        out = {"ongoing": [], "finished": [], "invitations": []}
        p = who.player
        for row in store.games_of(p.id) if p else ():
            # games in progress are in memory, with their turn; the others' rows say all
            g = await hub.load(row.id) if row.status in ("active", "setup") else None
            if g is not None:
                row = g.row
            side = 0 if p.id == row.player0_id else 1 if p.id == row.player1_id else None
            opp_id = row.player1_id if side == 0 else row.player0_id if side == 1 else row.creator_id
            opponent = store.player(opp_id).name if opp_id else None
            summary = {"id": row.id, "variant": row.variant, "time_control": TIME_CONTROLS[row.time_control].name,
                       "opponent": opponent, "your_side": side, "status": row.status,
                       "your_turn": g is not None and side is not None and (
                           row.status == "active" and side == g.game.board.turn
                           or row.status == "setup" and not getattr(row, f"submitted{side}")),
                       "result": row.result, "termination": row.termination,
                       "invite_url": f"/invite/{row.invite_token}" if row.creator_id == p.id else None}
            if row.status in ("active", "setup"):
                out["ongoing"].append(summary)
            elif row.status == "waiting":
                if row.creator_id == p.id or row.invited_id == p.id:
                    out["invitations"].append(summary)
            else:
                out["finished"].append(summary)
        return out

    @app.get("/api/games/{game_id}")
    async def game_state(game_id: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        state = await hub.view(game_id, who.id)
        if state is None:
            raise HTTPException(404, "no such game")
        return state

    @app.get("/api/games/{game_id}/record")
    async def game_record(game_id: str) -> PlainTextResponse:
        g = await hub.load(game_id)
        if g is None:
            raise HTTPException(404, "no such game")
        async with hub.locks[game_id]:
            if not g.rosters_revealed():
                raise HTTPException(409, "the record of a Private game is available when a game both sides "
                                         "played ends (its rosters stay secret otherwise)")
            text = g.game.export()
            finished = len(g.game.board.move_stack) - g.game.board.moves_in_turn
            headers = {"Site": "superchess", "Player1": g.names.get(g.row.player0_id) or "?",
                       "Player2": g.names.get(g.row.player1_id) or "?",
                       "Date": time.strftime("%Y.%m.%d", time.gmtime(g.row.created_at / 1000)),
                       "TimeControl": g.tc.name}
        return PlainTextResponse(await hub.offload.run(_public_record, text, finished, headers), headers={
            "Content-Disposition": f'attachment; filename="superchess-{game_id}.pgn"'})

    @app.post("/api/setups/preview")
    async def setup_preview(body: SetupIn) -> dict:
        """The "new shuffle" control: a set-up (random, from a seed, or square by square) to show
        before the match is created."""
        if not variants.known(body.variant):
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        return await hub.offload.run(_setup, body.variant, body.seed, body.squares)

    # -- rosters (R13-R17) ------------------------------------------------------------------
    @app.get("/api/variants/{variant}/layout")
    def variant_layout(variant: str) -> dict:
        """The board description the page draws: cells with their shapes and centres."""
        if not variants.known(variant):
            raise HTTPException(404, f"unknown variant {variant!r}")
        return variants.layout(variants.variant_of(variant).geometry)

    @app.get("/api/variants/{variant}/pieces")
    def variant_pieces(variant: str) -> dict:
        if not variants.named_pieces(variant):
            raise HTTPException(404, f"unknown variant {variant!r}")
        v = variants.variant_of(variant)
        return {"variant": v.name, "files": v.geometry.files, "ranks": v.geometry.ranks,
                "reprogrammable": v.reprogrammable, "start_fen": v.start_fen,
                "pieces": variants.piece_entries(v)}

    @app.post("/api/rosters/preview")
    async def preview(body: PreviewIn, request: Request) -> dict:
        if not variants.vector_pieces(body.variant):
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        client = client_of(request)
        refuse_if_throttled((previews, client), what="roster previews")
        previews.take(client)
        try:
            return await hub.offload.run_in_process(preview_answer, body.variant, body.roster, body.letter, body.square)
        except ValueError as e:  # ProgramError, or a square that is not on the board
            raise HTTPException(400, str(e)) from None

    def _account(who: Visitor) -> PlayerRow:
        if who.player is None or who.player.password_hash is None:
            raise HTTPException(403, "guests keep their rosters in this browser; log in to keep them on the server")
        return who.player

    @app.get("/api/rosters")
    def saved_rosters(who: Visitor = Depends(accounts.visitor)) -> dict:
        return {"rosters": [_saved(r) for r in store.rosters_of(_account(who).id)]}

    @app.put("/api/rosters/{name:path}")
    async def save_roster(name: str, body: SavedRosterIn, who: Visitor = Depends(accounts.visitor)) -> dict:
        p = _account(who)
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise HTTPException(400, "a roster name has 1 to 40 characters")
        if not variants.vector_pieces(body.variant):
            raise HTTPException(400, f"unknown variant {body.variant!r}")
        roster = await hub.offload.run(_roster, body.roster, body.variant)
        return _saved(store.save_roster(p.id, name, body.variant, roster.text(), now()))

    @app.delete("/api/rosters/{name:path}")
    def delete_roster(name: str, who: Visitor = Depends(accounts.visitor)) -> dict:
        if not store.delete_roster(_account(who).id, name.strip()):
            raise HTTPException(404, f"no saved roster named {name.strip()!r}")
        return {"ok": True}

    # -- websocket --------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        player = accounts.player_of(ws)
        await ws.accept()
        if await hub.load(game_id) is None:
            await ws.send_text(json.dumps({"type": "error", "message": "no such game"}))
            await ws.close(code=4404)
            return
        conn = Connection(ws.send_text, player.id if player else None)
        conn.start()
        await hub.join(game_id, conn)
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
        except RecursionError:
            return "malformed message: nested too deeply"
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            return 'malformed message: expected an object with a "type"'
        if data["type"] == "sync":
            conn.send(await hub.view(game_id, conn.player_id, as_message=True))
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
