"""The tournament's pairing and standings on a 64-team field (make bench).

Call ``tournament_figures()`` as a bench section: it returns a ``Section``.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

from bench.figures import Figure, Section, ms, percentile
from rules.tournament import Entrant, Tournament, TournamentFormat, meetings, new_config

TEAMS = 64
ROUNDS = 8
SEED = 20261122
STANDINGS_SAMPLES = 50
PAIRING_TARGET_S = 1.0
STANDINGS_TARGET_S = 0.010


def _field() -> Tournament:
    entrants = tuple(Entrant(f"Team {i:02}", f"School {i % 16}") for i in range(TEAMS))
    return Tournament(new_config(TournamentFormat.COMBO4, seed=SEED, rounds=ROUNDS), entrants)


def _play(tournament: Tournament, luck: random.Random) -> tuple[Tournament, float]:
    """Pair the next round (timed) and enter seeded random results for it."""
    started = time.perf_counter()
    pairing = tournament.pair(tournament.next_round)
    took = time.perf_counter() - started
    paired = replace(tournament, rounds=(*tournament.rounds, pairing))
    points = (0, 10, 20, 30, 40)
    results = tuple(
        paired.result(pairing.round, m.table, luck.choice(points), luck.choice(points))
        for m in pairing.matches
    )
    return replace(paired, results=(*tournament.results, *results)), took


def tournament_figures() -> Section:
    luck = random.Random(SEED)
    tournament = _field()
    round_times = []
    for _ in range(ROUNDS):
        tournament, took = _play(tournament, luck)
        round_times.append(took)
    total = sum(round_times)
    rematches = sum(count - 1 for count in meetings(tournament.rounds).values())
    standings_times = []
    for _ in range(STANDINGS_SAMPLES):
        started = time.perf_counter()
        tournament.standings()
        standings_times.append(time.perf_counter() - started)
    p99 = percentile(standings_times, 0.99)
    figures = [
        Figure(
            f"pairing {TEAMS} teams x {ROUNDS} rounds, in all",
            f"{total:.3f} s",
            f"<= {PAIRING_TARGET_S:.0f} s",
            total <= PAIRING_TARGET_S,
        ),
        Figure("slowest round's pairing", ms(max(round_times), 1), "-", None),
        Figure(f"rematches in {ROUNDS} rounds", str(rematches), "0", rematches == 0),
        Figure(
            f"standings of {TEAMS} teams p99",
            ms(p99),
            f"<= {ms(STANDINGS_TARGET_S, 0)}",
            p99 <= STANDINGS_TARGET_S,
        ),
        Figure(
            f"standings of {TEAMS} teams median",
            ms(statistics.median(standings_times)),
            "-",
            None,
        ),
    ]
    how = (
        f"a seeded Combo 4 field of {TEAMS} teams (16 schools, same-school pairs avoided), "
        f"Swiss-paired {ROUNDS} rounds with seeded random results: each Tournament.pair "
        "(standings, rustworkx matching) timed with time.perf_counter and summed; then the "
        f"{ROUNDS}-round standings computed {STANDINGS_SAMPLES} times."
    )
    return Section("Tournament", how, figures)
