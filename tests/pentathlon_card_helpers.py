"""A Contig 60 game for the score card's tests: two challenges (an I upheld by the Game Leader
at B's request, an IA), time called, A the winner at the time limit, the result confirmed."""

from __future__ import annotations

from pathlib import Path

GAME_LOG = [
    '{"action": "pentathlon.start", "game": "contig-60", "minutes": 30, "chips": 20}',
    '{"action": "pentathlon.begins", "player": "A"}',
    '{"action": "pentathlon.contig.play", "score": 12}',
    '{"action": "pentathlon.pass_flag", "player": "A"}',
    '{"action": "pentathlon.challenge", "challenger": "B", "rules": ["scoring"]}',
    '{"action": "pentathlon.rule", "ruling": "I"}',
    '{"action": "pentathlon.opinion", "challenge": 1, "asked_by": "B", "ruling": "I"}',
    '{"action": "pentathlon.contig.play", "score": 8}',
    '{"action": "pentathlon.pass_flag", "player": "A"}',
    '{"action": "pentathlon.contig.play", "score": 20}',
    '{"action": "pentathlon.pass_flag", "player": "B"}',
    '{"action": "pentathlon.challenge", "challenger": "A", "rules": ["placing"]}',
    '{"action": "pentathlon.rule", "ruling": "IA"}',
    '{"action": "pentathlon.contig.play", "score": 15}',
    '{"action": "pentathlon.time_called"}',
    '{"action": "pentathlon.pass_flag", "player": "A"}',
    '{"action": "pentathlon.contig.play", "score": 6}',
    '{"action": "pentathlon.pass_flag", "player": "B"}',
    '{"action": "pentathlon.confirm"}',
]


def write_log(path: Path, lines: list[str] = GAME_LOG) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# The longest card a game can make (R841): names, event and monitor of 60 characters with no
# space to break at, and 60 challenges, each ruled C by the Game Monitor, then by the Game Leader
# and the Tournament Director at the players' request, with the longest effect Contig 60 says.
LONG_NAMES = {"A": "W" * 60, "B": "M" * 60}
LONG_LINE = "Ш" * 60


def long_game_log(challenges: int = 60) -> list[str]:
    """A Contig 60 game with ``challenges`` challenges and two infractions, the last removing A
    from the site: the game ends with the Director's result (R987), confirmed."""
    lines = [
        '{"action": "pentathlon.start", "game": "contig-60", "minutes": 30, "chips": 20}',
        '{"action": "pentathlon.die_toss", "a": 3, "b": 3}',
        '{"action": "pentathlon.die_toss", "a": 1, "b": 2}',
        '{"action": "pentathlon.infraction", "player": "B", "zero_points": true}',
    ]
    holder = "A"
    for number in range(1, challenges + 1):
        challenger = "B" if holder == "A" else "A"
        lines += [
            '{"action": "pentathlon.contig.play", "score": 1}',
            f'{{"action": "pentathlon.challenge", "challenger": "{challenger}", '
            '"rules": ["recording"]}',
            '{"action": "pentathlon.rule", "ruling": "C"}',
            f'{{"action": "pentathlon.opinion", "challenge": {number}, "asked_by": "{holder}", '
            '"ruling": "C"}',
            f'{{"action": "pentathlon.opinion", "challenge": {number}, '
            f'"asked_by": "{holder}", "ruling": "C"}}',
        ]
        holder = challenger  # a Correct challenger begins a turn
    return [
        *lines,
        '{"action": "pentathlon.infraction", "player": "A", "removal": true}',
        '{"action": "pentathlon.director_result", "winner": "B"}',
        '{"action": "pentathlon.confirm"}',
    ]
