"""The tournament's pairing on 64-team and 256-team fields, and standings on 64 (make bench).

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
# (teams, rounds, the most all the rounds' pairing may take): a hall, and a very large field
FIELDS = ((TEAMS, ROUNDS, 0.1), (256, 10, 1.0))
STANDINGS_TARGET_S = 0.010
RUNS = 3


def _field(teams: int = TEAMS, rounds: int = ROUNDS) -> Tournament:
    entrants = tuple(Entrant(f"Team {i:03}", f"School {i % 16}") for i in range(teams))
    return Tournament(new_config(TournamentFormat.COMBO4, seed=SEED, rounds=rounds), entrants)


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


def _paired(teams: int, rounds: int) -> tuple[Tournament, list[float]]:
    """A field Swiss-paired ``rounds`` rounds with seeded random results, and each round's
    pairing time."""
    luck = random.Random(SEED)
    tournament = _field(teams, rounds)
    round_times = []
    for _ in range(rounds):
        tournament, took = _play(tournament, luck)
        round_times.append(took)
    return tournament, round_times


def tournament_figures() -> Section:
    figures = []
    tournament = _field()
    for teams, rounds, target in FIELDS:
        # the best of a few whole runs (each the same seeded field): load only adds time
        paired, round_times = min(
            (_paired(teams, rounds) for _ in range(RUNS)), key=lambda run: sum(run[1])
        )
        total = sum(round_times)
        rematches = sum(count - 1 for count in meetings(paired.rounds).values())
        figures += [
            Figure(
                f"pairing {teams} teams x {rounds} rounds, in all",
                f"{total:.3f} s",
                f"<= {target:g} s",
                total <= target,
            ),
            Figure(f"slowest round's pairing, {teams} teams", ms(max(round_times), 1), "-", None),
            Figure(
                f"rematches in {rounds} rounds, {teams} teams", str(rematches), "0", rematches == 0
            ),
        ]
        if teams == TEAMS:
            tournament = paired
    standings_times = []
    for _ in range(STANDINGS_SAMPLES):
        started = time.perf_counter()
        tournament.standings()
        standings_times.append(time.perf_counter() - started)
    p99 = percentile(standings_times, 0.99)
    figures += [
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
        "seeded Combo 4 fields of "
        + " and ".join(f"{teams} teams ({rounds} rounds)" for teams, rounds, _ in FIELDS)
        + ", 16 schools, same-school pairs avoided, Swiss-paired with seeded random results: "
        "each Tournament.pair (standings, the costs, rustworkx matching) timed with "
        f"time.perf_counter and summed, the best of {RUNS} runs; then the "
        f"{ROUNDS}-round standings of {TEAMS} teams computed {STANDINGS_SAMPLES} times."
    )
    return Section("Tournament", how, figures)
