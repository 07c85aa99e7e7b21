"""Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system" (2013)."""
from __future__ import annotations

import pytest

from superchess.server.glicko2 import SCALE, Rating, Result, rate


def test_the_papers_worked_example_to_its_published_precision():
    player = Rating(1500, 200, 0.06)
    games = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)]
    after = rate(player, games, tau=0.5)
    # the paper: mu' = -0.2069, phi' = 0.8722 on the Glicko-2 scale, sigma' = 0.05999; converted
    # back from those rounded values, r' = 1464.06 and RD' = 151.52
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.rating == pytest.approx(1464.06, abs=0.01) and after.deviation == pytest.approx(151.52, abs=0.01)


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx((100 ** 2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_win_gains_what_the_loser_loses_between_equals_and_the_deviation_never_passes_350():
    a, b = Rating(), Rating()
    a2, b2 = rate(a, [Result(b, 1)]), rate(b, [Result(a, 0)])
    assert a2.rating - 1500 == pytest.approx(1500 - b2.rating) and a2.rating > 1500
    assert a2.deviation < 350 and rate(Rating(1500, 349.9, 0.2), []).deviation == 350
