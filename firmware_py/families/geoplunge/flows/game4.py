"""Game 4, Play the Ranks or Border Zap: the version, the set-up, each trick as the dealer
judges it (the judge's CLI settles a disputed trick card by card)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, permutations
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, draw_prompt, plunge_prompt
from firmware_py.table.prompts import Outcome, Prompt, choice, confirm, yes_no
from rules.geoplunge.power import BASES

STAR_AREAS = ("state_name", "capital", "postal_code", "nickname", "flower", "bird")
POWER_PLAYS = (
    ("no Power card", False, False),
    ("lead's", True, False),
    ("other's", False, True),
    ("both", True, True),
)


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    phase = state.phase
    if phase == "version":
        return choice(
            "g4/version",
            "Power card version",
            [
                Outcome(v.upper(), {"action": "game4.version", "version": v})
                for v in ("ptr1", "ptr2", "ptb")
            ],
        )
    if phase == "statehood_draw":
        return draw_prompt("g4/draw", "leads trick 1")
    if phase == "plunge":
        return plunge_prompt("g4/plunge")
    inner = state.inner
    if phase == "tricks":
        return _ptb_trick(inner) if state.version == "ptb" else _ptr_trick(inner, scratch)
    return _ptr_setup(inner, phase, scratch)


def _ptr_setup(inner: Any, phase: str, scratch: Mapping[str, Any]) -> Prompt:
    lead = inner.first_lead.value
    second = inner.first_lead.other.value
    if phase == "power_cards":
        chosen: list[int] = list(scratch.get("bases", []))
        options = []
        for base in BASES:
            if base in chosen:
                continue
            picked = [*chosen, base]
            action = {"action": "game4.power_cards", "bases": picked} if len(picked) == 3 else None
            options.append(Outcome(str(base), action, {"bases": picked if action is None else []}))
        return choice(
            f"g4/power{len(chosen)}", f"Power card {len(chosen) + 1}: left number", options
        )
    if phase == "roles":
        return choice(
            "g4/roles",
            f"Team {lead} (lead): Cards or Call?",
            [_role(lead, r) for r in ("cards", "call")],
        )
    if phase == "roles_reply":
        ups = [
            Outcome(
                f"Up the BUR {n}", {"action": "game4.up_the_bur", "team": second, "bur_count": n}
            )
            for n in (3, 4, 5)
        ]
        return choice(
            "g4/reply", f"Team {second}: Cards or Up the BUR?", [_role(second, "cards"), *ups]
        )
    if phase == "roles_final":
        return choice(
            "g4/final", f"Team {lead}: Call or Cards?", [_role(lead, r) for r in ("call", "cards")]
        )
    call = inner.call_team.value
    if phase == "call":
        turned = inner.turned_bases
        pairs = permutations(turned, 2) if inner.version == "ptr1" else combinations(turned, 2)
        return choice(
            "g4/call",
            f"Team {call} keeps (tricks 1-4, 5-8)"
            if inner.version == "ptr1"
            else f"Team {call} keeps",
            [
                Outcome(f"{a} + {b}", {"action": "game4.call", "team": call, "bases": [a, b]})
                for a, b in pairs
            ],
        )
    if phase == "bur":
        count = inner.bur_count
        return confirm(
            "g4/bur",
            f"Deal {count} BUR cards face up",
            Outcome("dealt", {"action": "game4.bur_dealt", "count": count}),
        )
    if phase in ("pull_call_team", "pull_cards_team"):
        team = call if phase == "pull_call_team" else inner.cards_team.value
        pull = {"action": "game4.pull", "team": team}
        return yes_no(
            f"g4/{phase}",
            f"Team {team}: Pull the Power?",
            Outcome("pull", {**pull, "pulling": True}),
            Outcome("no", {**pull, "pulling": False}),
        )
    # geostar: the next Power card's Star Area
    stars = [
        Outcome(star.replace("_", " "), {"action": "game4.geostar", "star": star, "top_city": None})
        for star in STAR_AREAS
    ]
    cities = [
        Outcome(f"top city {n}", {"action": "game4.geostar", "star": "top_city", "top_city": n})
        for n in range(1, 6)
    ]
    return choice("g4/geostar", "GeoStar (Star Area)", [*stars, *cities])


def _role(team: str, role: str) -> Outcome:
    return Outcome(role.capitalize(), {"action": "game4.role", "team": team, "role": role})


def _ptr_trick(inner: Any, scratch: Mapping[str, Any]) -> Prompt:
    number = inner.trick_number
    lead = inner.lead.value
    other = inner.lead.other.value
    plays = scratch.get("power")
    if plays is None and inner.pulled_by is None:
        # offer only what the teams still hold: each has 2 Power cards per game
        lead_left = inner.power_cards_left(inner.lead) > 0
        other_left = inner.power_cards_left(inner.lead.other) > 0
        return choice(
            f"g4/power_plays{number}",
            f"Trick {number}: Power cards played?",
            [
                Outcome(label, None, {"power": [lp, op]})
                for label, lp, op in POWER_PLAYS
                if (lead_left or not lp) and (other_left or not op)
            ],
        )
    lead_power, other_power = plays or (False, False)
    result = {"action": "game4.trick_result", "lead_power": lead_power, "other_power": other_power}
    return yes_no(
        f"g4/trick{number}",
        f"Trick {number}: lead {lead} wins?",
        Outcome(f"{lead} wins", {**result, "winner": lead}, {"power": None}),
        Outcome(f"{other} wins", {**result, "winner": other}, {"power": None}),
    )


def _ptb_trick(inner: Any) -> Prompt:
    number = inner.trick_number
    lead = inner.lead.value
    other = inner.lead.other.value
    return yes_no(
        f"g4/zap{number}",
        f"Trick {number}: lead {lead} wins (no Zap)?",
        Outcome(f"{lead} wins", {"action": "game4.zap_result", "winner": lead}),
        Outcome(f"{other} zaps", {"action": "game4.zap_result", "winner": other}),
    )
