"""A dealer's press a moment late: the request's 5 s end, the join code takes the footer, and a
press then confirms (or turns down) nothing, silently; the dealer presses again once the footer
shows a request for a second, and that is the next request's, here another phone's for the
same seat (its footer differs only in the number).

    PYTHONPATH=. .venv/bin/python tests/attacks/late_press_attack.py count|no"""

import asyncio
import sys
import time

from tests.attacks.phones import Phone, dealer


def footer() -> str:
    return str(dealer("oled")["screen"]).split("footer=")[1].split(",")[0]


async def wait_for(text: str | None, absent: str | None = None) -> float:
    while True:
        shown = footer()
        if (text is None or text in shown) and (absent is None or absent not in shown):
            return time.monotonic()
        await asyncio.sleep(0.05)


async def main(button: str) -> None:
    di, mal = Phone("127.0.0.4"), Phone("127.0.0.9")
    first, second = (di, mal) if button == "count" else (mal, di)
    _, one = await first.ask("D")
    _, two = await second.ask("D")
    print("first asks D:", one["number"], " second asks D:", two["number"])
    await wait_for(one["number"])
    print("footer:", footer())
    await wait_for("JOIN")
    await asyncio.sleep(0.3)
    print("footer:", footer(), f"-> dealer presses {button.upper()} (late: {one['number']} meant)")
    dealer(f"press {button}")
    print("  first phone:", (await first.get("/api/me"))[1])
    await wait_for("COUNT", absent="JOIN")
    await asyncio.sleep(1.3)
    print("footer:", footer(), f"-> dealer presses {button.upper()} again")
    dealer(f"press {button}")
    await asyncio.sleep(0.5)
    print("  first phone: ", (await first.get("/api/me"))[1])
    print("  second phone:", (await second.get("/api/me"))[1])
    await di.close()
    await mal.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
