"""Seat attacks on the live table (Guesstimation, guessing phase, no deck): run with
PYTHONPATH=. .venv/bin/python tests/attacks/seats_attack.py"""

import asyncio

from tests.attacks.phones import Phone, dealer


async def main() -> None:
    di, mal, mal2 = Phone("127.0.0.4"), Phone("127.0.0.9"), Phone("127.0.0.9")
    print("Di joins D:", await di.join("D"))
    print("Mal joins A:", await mal.join("A"))
    print("1 Mal (holding A) asks D:", await mal.ask("D"))
    print("2 Mal, fresh cookies, asks D:", await mal2.ask("D"))
    print("   Di's /api/me:", await di.get("/api/me"))
    print("   OLED shown:", dealer("shown"))
    print(
        "3 Mal enters with a seat key:",
        await mal.post("/api/entry", {"name": "guess", "value": "5", "seat": "D"}),
    )
    print("4 Mal enters 'answer':", await mal.enter("answer", "5"))
    real = mal.csrf
    mal.csrf = di.csrf
    print("5 Mal with Di's CSRF on his cookie:", await mal.enter("guess", "7"))
    mal.csrf = "A" * 43
    print("6 forged CSRF:", await mal.enter("guess", "7"))
    mal.csrf = real
    print("7 no Origin:", await mal.post("/api/entry", {"name": "guess", "value": "7"}, Origin=""))
    print(
        "8 Origin null:",
        await mal.post("/api/entry", {"name": "guess", "value": "7"}, Origin="null"),
    )
    print(
        "9 Origin evil, Host evil:",
        await mal.post(
            "/api/entry",
            {"name": "guess", "value": "7"},
            Origin="http://evil.example:18080",
            Host="evil.example:18080",
        ),
    )
    print(
        "10 Origin http://127.0.0.1 (no port):",
        await mal.post("/api/entry", {"name": "guess", "value": "7"}, Origin="http://127.0.0.1"),
    )
    print(
        "11 Host 127.0.0.1:9 Origin same:",
        await mal.post(
            "/api/entry",
            {"name": "guess", "value": "7"},
            Origin="http://127.0.0.1:9",
            Host="127.0.0.1:9",
        ),
    )
    print("12 Di guesses 20:", await di.enter("guess", "20"))
    print("13 Mal guesses NaN:", await mal.enter("guess", "NaN"))
    print("14 Mal guesses fullwidth:", await mal.enter("guess", "\uff12\uff10"))
    print("15 Mal guesses 1e999999:", await mal.enter("guess", "1e999999"))
    print("16 Mal guesses 31 digits:", await mal.enter("guess", "9" * 31))
    print(
        "17 Mal leaves then re-uses csrf:",
        await mal.post("/api/leave", {}),
        await mal.enter("guess", "1"),
    )
    for phone in (di, mal, mal2):
        await phone.close()


if __name__ == "__main__":
    asyncio.run(main())
