"""The websockets (docs/protocol.md, "Websocket" and "Lobby"): a game's (`/ws/games/{id}`: the
viewer's state after every event, and the players' actions), the lobby's (`/ws/lobby`: the open
seeks as they change) and the other pages' presence socket (`/ws/presence`). Every socket of a
player keeps the player present on the site (`server/lobby.py`)."""
from __future__ import annotations

import json

from fastapi import APIRouter, WebSocket

from ..chat import ChatError
from ..hub import Connection
from ..live import ACTIONS, ActionError
from ..services import Services, ServicesDep

MAX_MESSAGE = 16384  # bytes of one websocket message (a full roster fits)

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str, s: ServicesDep) -> None:
    player = s.accounts.player_of(ws)
    await ws.accept()
    if await s.hub.load(game_id) is None:
        await ws.send_text(json.dumps({"type": "error", "message": "no such game"}))
        await ws.close(code=4404)
        return
    conn = Connection(ws.send_text, player.id if player else None)
    conn.start()
    await s.hub.join(game_id, conn)
    s.lobby.enter(conn, watching=False, hears_lobby=False)
    try:
        async for text in _messages(ws):
            error = await _handle(s, game_id, conn, text)
            if error:
                conn.send({"type": "error", "message": error})
    finally:
        s.lobby.leave(conn)
        s.hub.leave(game_id, conn)


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket, s: ServicesDep) -> None:
    """The open seeks: all of them on connect and on `sync`, then each change."""
    await _lobby_socket(ws, s, watching=True)


@router.websocket("/ws/presence")
async def presence_socket(ws: WebSocket, s: ServicesDep) -> None:
    """Keeps its player present (pages other than the lobby and games); hears `game_started`."""
    await _lobby_socket(ws, s, watching=False)


async def _lobby_socket(ws: WebSocket, s: Services, watching: bool) -> None:
    player = s.accounts.player_of(ws)
    await ws.accept()
    conn = Connection(ws.send_text, player.id if player else None)
    conn.start()
    s.lobby.enter(conn, watching)
    if watching:
        conn.send(s.lobby.listing())
    try:
        async for text in _messages(ws):
            data, error = _parsed(text)
            if data is not None and data["type"] == "sync" and watching:
                conn.send(s.lobby.listing())
            elif data is not None:
                conn.send({"type": "error", "message": f"unknown message type {data['type'][:40]!r}"})
            else:
                conn.send({"type": "error", "message": error})
    finally:
        s.lobby.leave(conn)
        conn.close()


async def _messages(ws: WebSocket):
    """The socket's messages as text, until it closes."""
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        text = msg.get("text")
        yield text if text is not None else (msg.get("bytes") or b"").decode("utf-8", "replace")


def _parsed(text: str) -> tuple[dict | None, str | None]:
    """A message as an object with a "type", or None and what is wrong with it."""
    if len(text.encode()) > MAX_MESSAGE:
        return None, f"message too large (at most {MAX_MESSAGE} bytes)"
    try:
        data = json.loads(text)
    except ValueError:
        return None, "malformed message: not JSON"
    except RecursionError:
        return None, "malformed message: nested too deeply"
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        return None, 'malformed message: expected an object with a "type"'
    return data, None


async def _handle(s: Services, game_id: str, conn: Connection, text: str) -> str | None:
    """Answer one message from a game's socket: None, or the error to send back."""
    data, error = _parsed(text)
    if data is None:
        return error
    if data["type"] == "sync":
        conn.send(await s.hub.view(game_id, conn.player_id, as_message=True))
        return None
    if data["type"] == "chat":
        try:
            await s.hub.chat(game_id, conn, data.get("text"))
        except (ChatError, LookupError) as e:
            return str(e)
        return None
    if data["type"] not in ACTIONS:
        return f"unknown message type {data['type'][:40]!r}"
    try:
        await s.hub.act(game_id, conn.player_id, data["type"], data)
    except (ActionError, LookupError) as e:
        return str(e)
    return None
