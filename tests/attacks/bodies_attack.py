"""Odd bodies and numbers on the live table (a seat still to guess: B). PYTHONPATH=. ..."""

import asyncio

from tests.attacks.phones import CSRF, Phone


async def raw(
    phone: Phone, path: str, data: str | bytes, ctype: str = "application/json", **headers: str
) -> tuple[int, str]:
    sent = {
        "Origin": phone.base,
        "Content-Type": ctype,
        **({CSRF: phone.csrf} if phone.csrf else {}),
        **headers,
    }
    async with phone.session.post(phone.base + path, data=data, headers=sent) as r:
        return r.status, (await r.text())[:160]


async def main() -> None:
    bo = Phone("127.0.0.2")
    print("Bo joins B:", await bo.join("B"))
    for value in [
        "NaN",
        "-Infinity",
        "\uff12\uff10",
        "\u0663",
        "1e999999",
        "9" * 31,
        "0." + "0" * 30 + "1",
        "1_000",
        " 5 ",
        "+.5e",
        "5\u200b",
        "\u202e5",
        "0x10",
        "--5",
    ]:
        print("guess", repr(value), await bo.enter("guess", value))
    print("json number value:", await raw(bo, "/api/entry", '{"name":"guess","value":1e999}'))
    print("huge int:", await raw(bo, "/api/entry", '{"name":"guess","value":' + "9" * 4000 + "}"))
    print("nested:", await raw(bo, "/api/entry", "[" * 3000 + "]" * 3000))
    print("dup keys:", await raw(bo, "/api/entry", '{"name":"guess","value":"1","value":"2"}'))
    print(
        "utf-16:",
        await raw(
            bo,
            "/api/entry",
            '{"name":"guess","value":"3"}'.encode("utf-16"),
            "application/json; charset=utf-16",
        ),
    )
    print("bad charset:", await raw(bo, "/api/entry", b"{}", "application/json; charset=x-nope"))
    print("latin1 bad utf8:", await raw(bo, "/api/entry", b'{"name":"guess","value":"\xff"}'))
    print(
        "utf-7:",
        await raw(
            bo,
            "/api/entry",
            b"+AHsAIg-name+ACI-:+ACI-guess+ACIALAAi-value+ACI-:+ACI-4+ACIAfQ-",
            "application/json; charset=utf-7",
        ),
    )
    print(
        "5000 bytes:", await raw(bo, "/api/entry", '{"name":"guess","value":"' + "1" * 5000 + '"}')
    )
    print("text/plain:", await raw(bo, "/api/entry", '{"name":"guess","value":"3"}', "text/plain"))
    print("form:", await raw(bo, "/api/join", "code=X&seat=B", "application/x-www-form-urlencoded"))
    print("null:", await raw(bo, "/api/entry", "null"))
    print("me:", await bo.get("/api/me"))
    print("final guess 29029:", await bo.enter("guess", "29029"))
    await bo.close()


if __name__ == "__main__":
    asyncio.run(main())
