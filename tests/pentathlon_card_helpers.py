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
