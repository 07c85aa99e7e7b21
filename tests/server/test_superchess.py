"""Superchess on the server: set-ups chosen at match creation (random, seed, square by square), the
holdings in the state, promotion only to a held piece (superchess R1-R7)."""
from __future__ import annotations

from superchess.rules import Board

from .util import move, new_match, ok, recv_state

E1 = {"b1": "V", "d1": "A", "f1": "S", "g1": "E"}


def test_the_new_shuffle_preview_is_random_reproducible_or_explicit(server):
    b = server.browser()
    explicit = ok(b.post("/api/setups/preview", json={"squares": E1}))
    assert explicit["fen"].startswith("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[")
    seeded = [ok(b.post("/api/setups/preview", json={"seed": "club night"}))["fen"] for _ in range(2)]
    assert seeded[0] == seeded[1]
    randoms = {ok(b.post("/api/setups/preview", json={}))["fen"] for _ in range(12)}
    assert len(randoms) > 1
    bad = b.post("/api/setups/preview", json={"squares": {**E1, "e1": "V"}})
    assert bad.status_code == 400 and "e1" in bad.json()["detail"]
    assert b.post("/api/setups/preview", json={"variant": "chess"}).status_code == 400


def test_a_superchess_match_starts_from_the_chosen_setup_with_holdings(server):
    m = new_match(server, variant="superchess", setup_squares=E1, time_control="rapid-10+5")
    s = m.state(m.p1)
    assert s["holdings"] == [{"Q": 1, "B": 1, "N": 2}, {"Q": 1, "B": 1, "N": 2}]
    assert s["fen"] == Board("superchess", s["fen"]).fen() and s["pieces"]["b1"] == "V"
    seeded = [new_match(server, variant="superchess", setup_seed="42").state(m.p1) for _ in range(2)]
    assert seeded[0]["fen"] == seeded[1]["fen"]
    assert new_match(server).state(m.p1)["holdings"] is None  # super16 has none


def test_captures_feed_the_owners_holdings_and_promotion_offers_only_held_pieces(server):
    fen = "4k3/1P6/8/3E4/8/5b2/8/4K3[] b - - 0 1"
    m = new_match(server, variant="superchess", fen=fen)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        s = move(w2, [w1], "f3d5")[1]["state"]
        assert s["holdings"] == [{"E": 1}, {}] and s["captured"][0] == ["E"]
        assert s["legal"]["b7"] == [{"to": "b8", "move": "b7b8e", "promotion": "e"}]
        s = move(w1, [w2], "b7b8e")[0]["state"]
        assert s["holdings"] == [{}, {}] and s["pieces"]["b8"] == "E"
