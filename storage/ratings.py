"""Skill ratings with openskill (Plackett-Luce, a model made for games of more than two players).

One finished hand is one match: each seat is a one-player team, ranked by the hand's deltas (more points,
better rank; equal deltas tie). Decisions (docs/stats.md):

* AI seats take part as fixed anonymous players: each enters every hand with the model's default rating
  (mu 25, sigma 25/3) and is never updated, so a player alone with three AI seats still gains or loses
  against a constant yardstick, and AI seats never fill the leaderboard.
* A hand in which every seat has the same delta (a drawn hand with no payments) says nothing about skill
  and is not rated.
* Ratings are kept per group and variant: a group's leaderboard ranks the games played there.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


def ranks(deltas: Sequence[int]) -> list[int]:
    """1 for the best delta; equal deltas share a rank (1 + how many seats did strictly better)."""
    return [1 + sum(1 for other in deltas if other > d) for d in deltas]


def rate(
    deltas: Sequence[int], current: Sequence[tuple[float, float] | None]
) -> list[tuple[float, float] | None]:
    """New (mu, sigma) per seat after a hand; ``current`` is None for an AI seat (fixed, default rating),
    whose entry in the answer stays None. A hand that rates nothing returns ``current`` unchanged."""
    if len(set(deltas)) < 2 or all(c is None for c in current):
        return list(current)
    teams = [[MODEL.rating(mu=c[0], sigma=c[1]) if c is not None else MODEL.rating()] for c in current]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks(deltas)])
    return [
        (float(team[0].mu), float(team[0].sigma)) if c is not None else None
        for team, c in zip(rated, current, strict=True)
    ]
