"""The chat of a game's page: the players' room (the two players write, everyone reads) and the
watchers' room (written and read by those who are not playing). Plain text, length- and rate-limited;
kept in the database (`chat_lines`), so a page that opens (on any server process, after a restart)
hears the last `HISTORY` lines of its rooms."""
from __future__ import annotations

import re
from typing import Callable, Hashable

from .store import ChatLineRow, Store
from .throttle import Throttle

PLAYERS, WATCHERS = "players", "watchers"
MAX_CHARS = 200   # of one line, after cleaning
HISTORY = 50      # lines a page that opens hears, per room
RATE = (5, 10_000)  # at most 5 lines per speaker within any 10 s (per server process)
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


class ChatError(ValueError):
    """A refused line; the message says why and nothing was said."""


def clean(text: object) -> str:
    """A line as it is shown: text only, control and invisible characters removed, whitespace
    collapsed; ChatError when nothing is left or it is too long."""
    if not isinstance(text, str):
        raise ChatError('a chat line needs its "text"')
    line = " ".join(_UNPRINTABLE.sub(" ", text).split())
    if not line:
        raise ChatError("an empty chat line")
    if len(line) > MAX_CHARS:
        raise ChatError(f"a chat line has at most {MAX_CHARS} characters")
    return line


class Chats:
    """Every game's rooms, and the rate limit of their speakers."""

    def __init__(self, store: Store, now: Callable[[], int]) -> None:
        self.store, self.now = store, now
        self._throttle = Throttle(*RATE, now)

    def line(self, game_id: str, room: str, speaker: Hashable, name: str, side: int | None, text: object) -> ChatLineRow:
        """A new line for a room, cleaned and counted against the speaker's rate (no I/O: `keep`
        stores it); ChatError if refused."""
        line = clean(text)
        wait = self._throttle.wait_s(speaker)
        if wait:
            raise ChatError(f"too many chat lines; wait {wait} s")
        self._throttle.take(speaker)
        return ChatLineRow(game_id=game_id, room=room, author=name, side=side, text=line, at=self.now())

    def keep(self, row: ChatLineRow, note: Callable[[dict], tuple[str, str]] | None = None) -> dict:
        """Store a line (blocking: call it off the event loop); returns it as pages receive it.
        `note(line)`: the notification its commit sends to the other processes, if any."""
        entry = shown(row)
        self.store.add_chat_line(row, note(entry) if note else None)
        return entry

    def history(self, game_id: str, room: str) -> list[dict]:
        """The room's last lines (blocking: call it off the event loop)."""
        return [shown(row) for row in self.store.chat_lines(game_id, room, HISTORY)]


def shown(row: ChatLineRow) -> dict:
    """A chat line as the pages receive it."""
    return {"name": row.author, "side": row.side, "text": row.text, "at": row.at}
