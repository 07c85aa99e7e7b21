"""The game websocket (`/ws/games/{id}`): the viewer's state after every event, and the players'
actions (docs/protocol.md, "Websocket")."""
from __future__ import annotations

import json

from fastapi import APIRouter, WebSocket

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
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None:
                text = (msg.get("bytes") or b"").decode("utf-8", "replace")
            error = await _handle(s, game_id, conn, text)
            if error:
                conn.send({"type": "error", "message": error})
    finally:
        s.hub.leave(game_id, conn)


async def _handle(s: Services, game_id: str, conn: Connection, text: str) -> str | None:
    """Answer one message from the socket: None, or the error to send back."""
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
        conn.send(await s.hub.view(game_id, conn.player_id, as_message=True))
        return None
    if data["type"] not in ACTIONS:
        return f"unknown message type {data['type'][:40]!r}"
    try:
        await s.hub.act(game_id, conn.player_id, data["type"], data)
    except (ActionError, LookupError) as e:
        return str(e)
    return None
