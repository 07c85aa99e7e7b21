"""Fixtures for the engine tests: `uci`, a conversation with `superchess engine` (killed at the end)."""
from __future__ import annotations

import pytest

from tests.engine.conversation import Conversation


@pytest.fixture
def uci():
    conv = Conversation()
    yield conv
    if conv.proc.poll() is None:
        conv.proc.kill()
