"""Two connections that never finish a request (one silent, one half a header): aiohttp keeps
both open. PYTHONPATH=. .venv/bin/python tests/attacks/idle_attack.py (table on '::')"""

import asyncio
import time


async def main() -> None:
    silent, _ = await asyncio.open_connection("::1", 18080)
    half, writer = await asyncio.open_connection("::1", 18080)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
    await writer.drain()
    start = time.monotonic()

    async def closed(reader: asyncio.StreamReader, name: str) -> None:
        await reader.read()
        print(name, "closed by the server after", round(time.monotonic() - start), "s")

    tasks = [
        asyncio.create_task(closed(silent, "silent")),
        asyncio.create_task(closed(half, "half")),
    ]
    await asyncio.wait(tasks, timeout=200)
    print("still open after 200 s:", not silent.at_eof(), not half.at_eof())


if __name__ == "__main__":
    asyncio.run(main())
