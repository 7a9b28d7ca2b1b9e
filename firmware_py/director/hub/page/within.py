"""An event's pages inside a day's page (issue 27, R1140): every link, form, redirect and
script address of the one-record page kept under the event's address, ``/events/<slug>``.

The one-record page's views write their addresses from the root (``href="/teams"``), as they
did before a day held several events; an event's page answers exactly as that page does, and
this one middleware, the only place that knows of the prefix, puts the event's address before
each of them on the way out: the ``href``, ``action`` and ``src`` of its HTML, the
``Location`` of its redirects, the address a projector's refresh goes on to, and a
``<meta name="gametable-base">`` the page's scripts read their addresses from
(static/board.js). The day's stylesheet and scripts are served once, at
``/static``, and never prefixed. The day's name and time zone head every event's page, with a
link back to the day.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_py.director.hub.page.render import text
from firmware_py.director.record.venue import Venue

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# an address from the root in an attribute, or in a refresh's "N;url=/...": never another
# site's (//host), never /static
_ROOTED = re.compile(r'(\s(?:href|action|src)="|;url=)/(?!/|static/)')


def inside(base: str, address: str) -> str:
    """``address`` within the event at ``base``: an address of its own page gets the prefix,
    once; the static files' and another site's stay as they are."""
    if not address.startswith("/") or address.startswith(("//", "/static/")):
        return address
    if address == base or address.startswith((base + "/", base + "?")):
        return address
    return base + address


def rooted_within(base: str, html: str) -> str:
    """Every root address of ``html``'s links, forms and scripts put under ``base``."""
    return _ROOTED.sub(lambda found: f"{found[1]}{base}/", html)


def day_banner(day: Venue, event: str) -> str:
    """The line above an event's heading: the day, its time zone, the event, and the way back."""
    return (
        f'<p class="day-banner"><a href="/">{text(day.name or "the day")}</a>'
        f" · {text(day.time_zone)} · {text(event)}</p>"
    )


def within_event(base: str, day: Venue | None, event: str) -> Middleware:
    """The middleware of an event's page mounted at ``base`` (outermost in its app)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPRedirection as redirect:  # the login's "see /login?next=..."
            redirect.headers["Location"] = inside(base, redirect.headers.get("Location", "/"))
            raise
        location = response.headers.get("Location")
        if location is not None:
            response.headers["Location"] = inside(base, location)
        if isinstance(response, web.Response) and response.content_type == "text/html":
            html = rooted_within(base, response.text or "")
            meta = f'<meta name="gametable-base" content="{text(base)}">'
            html = html.replace("<head>\n", f"<head>\n{meta}\n", 1)
            if day is not None:
                html = html.replace("<header>", "<header>" + day_banner(day, event), 1)
            response.text = html
        return response

    return middleware
