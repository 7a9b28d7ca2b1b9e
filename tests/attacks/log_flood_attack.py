"""One address, no code: requests that leave mid-body. Each connection sends a request's
headers and one byte of its body, then closes; count the table's log lines meanwhile.
PYTHONPATH=. .venv/bin/python tests/attacks/log_flood_attack.py SECONDS LOGFILE"""

import asyncio
import os
import sys
import time
from pathlib import Path

PORT = int(os.environ.get("PORT", "18080"))  # 18081: live_director.py
PATH = "/api/state" if PORT == 18080 else "/public"
HEAD = f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nContent-Length: 100\r\n\r\n{{".encode()


async def one() -> None:
    _reader, writer = await asyncio.open_connection("127.0.0.1", PORT, local_addr=("127.0.3.1", 0))
    writer.write(HEAD)
    await writer.drain()
    await asyncio.sleep(0.05)  # the table has read the headers: the handler waits for the body
    writer.close()


async def main(seconds: float, logfile: Path) -> None:
    before = logfile.stat().st_size
    lines_before = logfile.read_text(errors="replace").count("\n")
    until, sent = time.monotonic() + seconds, 0
    while time.monotonic() < until:
        await asyncio.gather(*(one() for _ in range(10)), return_exceptions=True)
        sent += 10
    await asyncio.sleep(1)
    text = logfile.read_text(errors="replace")
    print(f"requests left mid-body: {sent} in {seconds:g} s")
    print(
        f"table log: {text.count(chr(10)) - lines_before} lines, "
        f"{logfile.stat().st_size - before} bytes, "
        f"{text[before:].count('Traceback')} tracebacks"
    )


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]), Path(sys.argv[2])))
