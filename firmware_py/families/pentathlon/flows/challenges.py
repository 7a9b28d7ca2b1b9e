"""Challenges at the table: who challenges, the rule(s) in the order announced, the monitor's
ruling (C / I / IA), what it did, and the 2nd and 3rd opinions.

From the challenge to the end of its rulings the table is in a time out (R232): the game clock
and the turn's minute stand still. After the monitor's ruling the screen says what it did and
warns a player after a first and second I/IA; either player may ask for an opinion (NO) until
the monitor lets play go on (YES) or play goes on by itself (a flag pass, a new challenge).
The topics the rulebook does not let anyone challenge are on the list too: the table refuses
them with the reason, and nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.pentathlon.flows.common import (
    RULINGS,
    SCRATCH_CHALLENGE,
    SCRATCH_OPINION,
    SCRATCH_PLAY_ON,
    act,
    label,
    takes,
    turn_span,
)
from firmware_py.families.pentathlon.flows.turn import seat_presses
from firmware_py.table.prompts import Kind, Outcome, Prompt, choice, confirm
from rules.pentathlon.catalogue import NOT_CHALLENGEABLE, Ruling
from rules.pentathlon.challenges import STRIKES_TO_LOSE, ChallengeRecord, Official
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.players import Player

OFFICIALS = {
    Official.MONITOR: "Monitor",
    Official.GAME_LEADER: "Game Leader",
    Official.TOURNAMENT_DIRECTOR: "Tournament Director",
}


# --- entering a challenge (the clocks run until it is announced) -------------------------------


def entry(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    entered: dict[str, Any] = dict(scratch[SCRATCH_CHALLENGE])
    number = len(game.challenges) + 1
    span = turn_span(game)
    if "by" not in entered:
        options = [
            Outcome(seat, scratch={SCRATCH_CHALLENGE: {**entered, "by": seat}})
            for seat in ("A", "B")
        ]
        prompt = choice(f"p/challenge{number}/who", "Who challenges?", options)
    elif entered.get("refused"):
        topic = entered["refused"]
        back = {key: value for key, value in entered.items() if key != "refused"}
        prompt = confirm(
            f"p/challenge{number}/refused/{topic}",
            _refusal(game, topic),
            Outcome("back", scratch={SCRATCH_CHALLENGE: back}),
        )
        prompt = _with(prompt, hint="YES: back", alert="NOT CHALLENGEABLE")
    else:
        prompt = _rules_choice(game, entered, number)
    return _with(prompt, timer_span=span)


def _rules_choice(game: PentathlonGame, entered: dict[str, Any], number: int) -> Prompt:
    by = entered["by"]
    chosen: list[str] = list(entered.get("rules", []))
    options = []
    if chosen:
        done = act("challenge", challenger=by, rules=chosen)
        options.append(Outcome(f"Done: {len(chosen)} rule{'s' if len(chosen) > 1 else ''}", done))
    for rule in game.rules.challenge_rules:
        if rule.key not in chosen:
            more = {**entered, "rules": [*chosen, rule.key]}
            options.append(Outcome(label(rule.key), scratch={SCRATCH_CHALLENGE: more}))
    for topic in (*NOT_CHALLENGEABLE, *game.rules.not_challengeable):
        refused = {**entered, "refused": topic}
        options.append(Outcome(label(topic), scratch={SCRATCH_CHALLENGE: refused}))
    text = f"{by} challenges: rule {len(chosen) + 1}?" if chosen else f"{by} challenges: rule?"
    return choice(f"p/challenge{number}/rule{len(chosen) + 1}", text, options)


def _refusal(game: PentathlonGame, topic: str) -> str:
    """The rulebook's reason, after the topic (the alert says it is not challengeable)."""
    reason = NOT_CHALLENGEABLE.get(topic) or game.rules.not_challengeable[topic]
    _, said, why = reason.partition("not challengeable: ")
    return f"{label(topic).capitalize()}: {why if said else reason}"


# --- the monitor's ruling (a time out) -----------------------------------------------------


def ruling(game: PentathlonGame) -> Prompt:
    record = game.awaiting_ruling
    assert record is not None
    # only the rulings the game allows: one for some rules, no C where it cannot be
    options = [
        Outcome(RULINGS[ruling.value], act("rule", ruling=ruling.value))
        for ruling in Ruling
        if takes(game, act("rule", ruling=ruling.value))
    ]
    text = f"Challenge {record.number}: {record.challenger} on {label(record.rule)}"
    if record.of_declared_win:
        text += " (declared win)"
    prompt = choice(f"p/rule{record.number}", text, options)
    return _with(prompt, time_out=True, alert=f"TIME OUT: {record.challenger} CHALLENGES")


# --- after the ruling: what it did, warnings, opinions (a time out until play goes on) -------


def window_open(game: PentathlonGame, scratch: Mapping[str, Any]) -> bool:
    """The latest challenge has been ruled and play has not gone on yet."""
    return (
        game.window is not None
        and game.awaiting_ruling is None
        and not scratch.get(SCRATCH_PLAY_ON)
    )


def after_ruling(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    if SCRATCH_OPINION in scratch:
        return _opinion(game, scratch)
    records = _window(game)
    latest = records[-1]
    asked = _open_to_opinion(game)
    text = "; ".join(f"Ch {r.number} {r.ruling}: {r.effect}" for r in records if r.ruling)
    play_on = Outcome("play on", scratch={SCRATCH_PLAY_ON: True})
    key = f"p/ruled{records[0].number}/{sum(len(r.rulings) for r in records)}"
    if asked:
        options: tuple[Outcome, ...] = (play_on, Outcome("opinion", scratch={SCRATCH_OPINION: {}}))
        kind, hint = Kind.YES_NO, "YES:play NO:opinion"
    else:
        options, kind, hint = (play_on,), Kind.CONFIRM, "YES: play on"
    return Prompt(
        key=key,
        kind=kind,
        text=text,
        options=options,
        hint=hint,
        on_press=seat_presses(game, flag=game.phase == "play"),
        time_out=True,
        alert=_warning(game, latest.challenger.value),
    )


def _warning(game: PentathlonGame, seat: str) -> str | None:
    """The monitor's warning after a first and second I/IA; the third ends the game."""
    count = game.strikes(Player(seat))
    if count >= STRIKES_TO_LOSE:
        return f"{seat}: 3 I/IA - LOSS"
    if count > 0:
        return f"{seat}: {count} I/IA - WARNING"
    return None


def _window(game: PentathlonGame) -> list[ChallengeRecord]:
    assert game.window is not None
    return list(game.challenges[game.window.first :])


def _open_to_opinion(game: PentathlonGame) -> list[ChallengeRecord]:
    return [r for r in _window(game) if r.rulings and r.next_official is not None and r.in_force]


def _opinion(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    entered: dict[str, Any] = dict(scratch[SCRATCH_OPINION])
    records = _open_to_opinion(game)
    if "challenge" not in entered and len(records) == 1:
        entered["challenge"] = records[0].number
    if "challenge" not in entered:
        options = [
            Outcome(
                f"Ch {r.number} {label(r.rule)}"[:15],
                scratch={SCRATCH_OPINION: {**entered, "challenge": r.number}},
            )
            for r in records
        ]
        prompt = choice("p/opinion/which", "Opinion on which challenge?", options)
    else:
        record = game.challenges[entered["challenge"] - 1]
        official = record.next_official
        assert official is not None
        if "asked_by" not in entered:
            options = [
                Outcome(f"{seat} asks", scratch={SCRATCH_OPINION: {**entered, "asked_by": seat}})
                for seat in ("A", "B")
            ]
            text = f"Who asks the {OFFICIALS[official]}?"
            prompt = choice(f"p/opinion{record.number}/{official.value}/who", text, options)
        else:
            opinions = [
                act(
                    "opinion",
                    challenge=record.number,
                    asked_by=entered["asked_by"],
                    ruling=ruling.value,
                )
                for ruling in Ruling
            ]
            options = [
                Outcome(RULINGS[opinion["ruling"]], opinion)
                for opinion in opinions
                if takes(game, opinion)
            ]
            text = f"{OFFICIALS[official]} rules challenge {record.number}"
            prompt = choice(f"p/opinion{record.number}/{official.value}", text, options)
    return _with(prompt, time_out=True, alert="TIME OUT: OPINION")


def _with(prompt: Prompt, **changes: Any) -> Prompt:
    return replace(prompt, **changes)
