"""Glicko-2 ratings, as Mark Glickman's "Example of the Glicko-2 system" (2013) defines them.

A rating is (rating, deviation, volatility) on the Glicko scale (1500 / 350 / 0.06 for a new
player). `rate` applies one rating period's games; the server rates each game as a period of its
own, as lichess does. Pure arithmetic: no I/O.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko points per Glicko-2 unit (step 2 of the paper)
TAU = 0.5  # how much volatility may change per period (the paper suggests 0.3 to 1.2)
EPSILON = 1e-6  # convergence of the volatility iteration (step 5)
MAX_DEVIATION = 350.0


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent's rating before it, and the score (1, 0.5 or 0)."""
    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, results: list[Result], tau: float = TAU) -> Rating:
    """The player's rating after a period with these games (steps 2-8 of the paper). With no games
    only the deviation grows (step 6)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.deviation / SCALE, player.volatility
    if not results:
        return Rating(player.rating, min(MAX_DEVIATION, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    terms = []
    for r in results:
        mu_j, phi_j = (r.opponent.rating - 1500) / SCALE, r.opponent.deviation / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), r.score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)  # step 3
    delta = v * sum(g * (s - e) for g, e, s in terms)  # step 4
    sigma = _new_volatility(phi, sigma, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)  # step 7
    mu = mu + phi * phi * sum(g * (s - e) for g, e, s in terms)
    return Rating(1500 + SCALE * mu, min(MAX_DEVIATION, SCALE * phi), sigma)  # step 8


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = c, f_c
    return math.exp(big_a / 2)
