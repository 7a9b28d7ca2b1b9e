"""IPv6: one /64 (fd00::/64 on lo) against the shares; the table listening on '::'.
PYTHONPATH=. .venv/bin/python tests/attacks/ipv6_attack.py"""

import asyncio

from tests.attacks.phones import BASE6, Phone


async def main() -> None:
    # wrong codes: 12 addresses of one /64, 6 tries each
    compared = refused = 0
    for i in range(1, 13):
        async with Phone(f"fd00::{i}", BASE6) as p:
            for _ in range(6):
                _status, body = await p.ask("A", code="ZZZZZZ")
                if "not the join code" in body["error"]:
                    compared += 1
                else:
                    refused += 1
    print(
        f"wrong codes from 12 addresses of one /64: compared {compared}, refused unlooked {refused}"
    )
    async with Phone("fd00::5", BASE6) as p:
        print("right code from a fresh-tried address of the crowded /64:", await p.ask("A"))
    async with Phone("fd00::12", BASE6) as p:
        print("right code from an address past its own tries:", await p.ask("B"))
    # the queue: 6 per /64, then others
    phones = [Phone(f"fd00::{100 + i}", BASE6) for i in range(1, 9)]
    answers = [(await p.ask("C"))[0] for p in phones]
    print("asks from 8 addresses of the /64:", answers)
    for extra in ("fd00:0:0:1::1", "fd00:0:0:2::1"):
        async with Phone(extra, BASE6) as p:
            print(f"ask from {extra}:", (await p.ask("D"))[0])
    async with Phone("::1", BASE6) as p:
        print("ask from ::1 (9th):", await p.ask("D"))
    for p in phones:
        await p.close()
    print("Host [::1]:18080 with Origin http://[::1]:18080 handled above; mapped-v4 Host:")
    async with Phone("::1", BASE6) as p:
        print(
            await p.post(
                "/api/join",
                {"code": "x", "seat": "A"},
                Host="[::ffff:127.0.0.1]:18080",
                Origin="http://[::ffff:7f00:1]:18080",
            )
        )


if __name__ == "__main__":
    asyncio.run(main())
