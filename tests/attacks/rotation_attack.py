"""Keep an honest phone's request off the OLED for its whole minute: the real ``Access`` (the
table page's queue, its turns and its footer) on a simulated clock, the footer drawn every
0.1 s as the daemon would. Seven attacker addresses (IPv4) hold seven places; one honest phone
asks for seat D, and asks again whenever its request runs out or it is refused.

The attacker (standing at the table, reading the OLED like everyone else) re-asks its own
request while it is on show whenever the honest request is next in turn: the request on show
is then ``waiting[0]`` (the rotation starts over), and the honest phone's turn moves back.

    PYTHONPATH=. .venv/bin/python tests/attacks/rotation_attack.py [MINUTES] [--plain] [--seeds=N]

``--seeds=N``: N runs, the attacker's first asks spread at random (seeds 0..N-1) instead of
0.5 s apart.

``--plain``: the attacker only keeps its seven places (asks again as each runs out)."""

import random
import sys

from firmware_py.table.web.access import CONFIRM_AFTER, Access, AccessError

SEATS = ("A", "B", "C", "D")


def main(minutes: float, rewind: bool, seed: int | None = None) -> None:
    now = [1000.0]
    access = Access(clock=lambda: now[0])
    access.follow(1)
    code = access.code
    attackers = [f"10.0.0.{i}" for i in range(1, 8)]
    tokens: dict[str, str | None] = dict.fromkeys(attackers)

    def ask(address: str, place: str, token: str | None) -> str | None:
        try:
            request = access.ask(
                code, place, seats=SEATS, officials=(), address=address, token=token
            )
        except AccessError:
            return None
        return request.token

    spread = random.Random(seed)  # the attacker's first asks: 0.5 s apart, or spread at random
    for address in attackers:
        tokens[address] = ask(address, "A", None)
        now[0] += 0.5 if seed is None else spread.uniform(0, 60 / len(attackers))
    honest: str | None = None
    honest_address = "10.9.9.9"
    confirmable = 0.0  # seconds the honest request was on the footer past CONFIRM_AFTER
    asked = requests_made = rewinds = 0
    shown_since: float | None = None
    per_request: list[float] = []
    end = now[0] + minutes * 60
    while now[0] < end:
        if access.waiting(honest) is None:
            token = ask(honest_address, "D", None)
            asked += 1
            if token is not None:
                honest, requests_made = token, requests_made + 1
                per_request.append(0.0)
        for address in attackers:  # keep the places
            if access.waiting(tokens[address]) is None:
                tokens[address] = ask(address, "A", None) or tokens[address]
        footer = access.footer(now[0])
        if footer is not None and footer.token == honest:
            shown_since = now[0] if shown_since is None else shown_since
            if now[0] - shown_since >= CONFIRM_AFTER:
                confirmable += 0.1
                per_request[-1] += 0.1
        else:
            shown_since = None
        shown = access.shown
        waiting = access.requests
        if rewind and shown is not None and shown.token != honest and len(waiting) > 1:
            following = waiting[(waiting.index(shown) + 1) % len(waiting)]
            if following.token == honest:  # the honest phone is next: start the turns over
                owner = next(a for a in attackers if tokens[a] == shown.token)
                tokens[owner] = ask(owner, "A", tokens[owner]) or tokens[owner]
                rewinds += 1
        now[0] = round(now[0] + 0.1, 1)
    print(
        f"{minutes:g} min, attacker {'re-asks on show' if rewind else 'holds 7 places'}: "
        f"honest phone asked {asked} times, {requests_made} requests waited, "
        f"confirmable on the OLED for {confirmable:.1f} s in all; attacker re-asks: {rewinds}"
    )
    print("  seconds each request was confirmable:", [round(s, 1) for s in per_request])


if __name__ == "__main__":
    seeds = [int(a.split("=")[1]) for a in sys.argv[1:] if a.startswith("--seeds=")]
    minutes = float(next((a for a in sys.argv[1:] if a[0].isdigit()), "10"))
    for seed in range(seeds[0]) if seeds else [None]:
        main(minutes, "--plain" not in sys.argv, seed)
