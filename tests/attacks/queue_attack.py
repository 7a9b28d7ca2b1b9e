"""Hold the dealer's queue (8 requests) from 8 IPv4 addresses with the code read off the OLED;
each re-asks the moment its minute runs out. An honest phone asks every second meanwhile.
PYTHONPATH=. .venv/bin/python tests/attacks/queue_attack.py SECONDS"""

import asyncio
import sys
import time

from tests.attacks.phones import Phone, dealer


async def hold(phone: Phone, seat: str, until: float) -> int:
    asks = 0
    while time.monotonic() < until:
        status, _body = await phone.ask(seat)
        asks += status == 202
        await asyncio.sleep(0.05 if status != 202 else 0.2)
        # poll our own request: re-ask as soon as it is no longer waiting
        while time.monotonic() < until:
            _, me = await phone.get("/api/me")
            if not me.get("pending"):
                break
            await asyncio.sleep(0.05)
    return asks


async def honest(until: float) -> list[str]:
    seen = []
    async with Phone("127.0.0.3") as cy:
        while time.monotonic() < until:
            status, body = await cy.ask("C")
            seen.append(f"{status}: {body.get('error', body.get('number'))}"[:90])
            if status == 202:
                break
            await asyncio.sleep(1.0)
    return seen


async def main(seconds: float) -> None:
    until = time.monotonic() + seconds
    phones = [Phone(f"127.0.0.{20 + i}") for i in range(8)]
    tasks = [asyncio.create_task(hold(p, "ABCD"[i % 4], until)) for i, p in enumerate(phones)]
    await asyncio.sleep(1)
    print("OLED shows:", dealer("shown"))
    seen = await honest(until)
    print("honest phone's answers:", len(seen), "first:", seen[0], "last:", seen[-1])
    print("202 answers to the honest phone:", sum(s.startswith("202") for s in seen))
    print("attacker's accepted asks:", await asyncio.gather(*tasks))
    for p in phones:
        await p.close()


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1])))
