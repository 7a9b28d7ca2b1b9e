"""One address, with the code, keeps one request waiting at all times: the OLED's footer shows
the request, never the join code.
PYTHONPATH=. .venv/bin/python tests/attacks/hide_code_attack.py SECONDS"""

import asyncio
import sys
import time

from tests.attacks.phones import Phone, dealer


async def main(seconds: float) -> None:
    until = time.monotonic() + seconds
    footers: dict[str, int] = {}
    async with Phone("127.0.0.30") as mal:

        async def keep() -> None:
            while time.monotonic() < until:
                _, me = await mal.get("/api/me")
                if not me.get("pending"):
                    await mal.ask("A")
                await asyncio.sleep(0.05)

        task = asyncio.create_task(keep())
        while time.monotonic() < until:
            screen = dealer("oled")["screen"]
            footer = screen.split("footer=")[1].split(",")[0]
            kind = "JOIN code" if "JOIN" in footer else ("request" if "COUNT" in footer else "hint")
            footers[kind] = footers.get(kind, 0) + 1
            await asyncio.sleep(0.25)
        await task
    print("OLED footer samples every 0.25 s:", footers)


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1])))
