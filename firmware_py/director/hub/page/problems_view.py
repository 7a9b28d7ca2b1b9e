"""The control room's HTML: the problem queue (at the top of ``/`` and as ``/problems``) and
the grid's filter and search. ``static/board.js`` keeps both live from ``/api/problems`` and
the event stream; this is what a page shows before its script runs, or without one."""

from __future__ import annotations

from collections.abc import Sequence

from firmware_py.director.hub.page.problems import KINDS, Problem, result_form
from firmware_py.director.hub.page.render import hidden, shell, text
from firmware_py.director.record.venue import Venue

# The grid's status filter: what a tile is doing (static/board.js decides it per tile).
STATUSES = {
    "attention": "needs attention",
    "waiting": "waiting for its result",
    "playing": "playing",
    "done": "result in",
    "offline": "offline",
    "unheard": "not heard from",
}


def problems_section(
    problems: Sequence[Problem],
    now: float,
    *,
    csrf: str | None,
    back: str,
    enters: bool,
    venue: Venue,
) -> str:
    """The queue, oldest first, as ``problems.as_seen_by`` gives it for the staff member's
    role (a problem to mark seen only a director's; ``csrf``: their forms' token); ``enters``:
    they may enter results, and a missing result's table links to the form; each problem's
    "since" on the ``venue``'s clock (R1181)."""
    items = "".join(
        _item(problem, now, csrf, back, enters=enters, venue=venue) for problem in problems
    )
    empty = " hidden" if problems else ""
    on_top = back == "/"  # at the top of the grid: a short list, and a link to the whole
    alone = ' <a href="/problems" class="alone">on a page of their own</a>' if on_top else ""
    return (
        f'<section aria-labelledby="problems-title" class="problems{" top" if on_top else ""}">'
        f'<h2 id="problems-title">Problems <span id="problem-count" class="count">'
        f"{len(problems)}</span>{alone}</h2>"
        f'<p id="no-problems" class="calm"{empty}>Nothing needs you now.</p>'
        f'<ol id="problems" data-back="{text(back)}">{items}</ol>{_more() if on_top else ""}'
        "</section>"
    )


def _more() -> str:
    """Under the queue on top of ``/``, whose list scrolls in a box: how many of the problems
    show, and a button to show them all (static/board.js fills and shows it when the list
    holds more than its box shows)."""
    return (
        '<p id="problems-more" class="more" hidden><span id="problems-shown"></span> '
        '<button type="button" id="problems-all" aria-controls="problems" '
        'aria-expanded="false">Show all</button></p>'
    )


def problems_page(
    problems: Sequence[Problem],
    now: float,
    *,
    csrf: str | None,
    enters: bool,
    venue: Venue,
) -> str:
    body = problems_section(problems, now, csrf=csrf, back="/problems", enters=enters, venue=venue)
    nav = '<nav><a href="/">All tables</a> · <a href="/public">Public standings</a></nav>'
    return shell("Problems", body, nav=nav, script=True, venue=venue)


def grid_tools(rounds: int) -> str:
    """The grid's search and filters (by round, status, problem) and how many tiles show."""
    round_options = "".join(f'<option value="{n}">round {n}</option>' for n in range(1, rounds + 1))
    statuses = "".join(f'<option value="{k}">{text(v)}</option>' for k, v in STATUSES.items())
    kinds = "".join(f'<option value="{k}">{text(v)}</option>' for k, v in KINDS.items())
    return f"""<div id="grid-tools" class="grid-tools" role="search">
<label class="search">Find <input id="tile-search" type="search" autocomplete="off"
 placeholder="table or team" aria-label="Find a table by its number or a team's name"></label>
<label>Round <select id="tile-round"><option value="">all</option>{round_options}</select></label>
<label>Status <select id="tile-status"><option value="">all</option>{statuses}</select></label>
<label>Problem <select id="tile-problem"><option value="">all</option>{kinds}</select></label>
<output id="tile-count" class="count-line"></output></div>"""


def _item(
    problem: Problem, now: float, csrf: str | None, back: str, *, enters: bool, venue: Venue
) -> str:
    links = " · ".join(f'<a href="{text(a.href)}">{text(a.text)}</a>' for a in problem.links)
    tables = ""
    if problem.tables and problem.round is not None:
        number = problem.round

        def href(table: int) -> str:
            return result_form(number, table) if enters else f"/tables/{table}"

        tables = (
            f'<details class="missing-tables"><summary>{_which(problem.tables)}</summary>'
            + " ".join(f'<a href="{text(href(t))}">{t}</a>' for t in problem.tables)
            + "</details>"
        )
    seen = ""
    if problem.seen_key is not None and csrf is not None:
        seen = (
            '<form method="post" action="/problems/seen" class="inline">'
            + hidden("csrf", csrf)
            + hidden("key", problem.seen_key)
            + hidden("back", back)
            + '<button type="submit">Mark seen</button></form>'
        )
    return (
        f'<li class="problem {text(problem.kind)}">'
        f'<span class="kind">{text(problem.label)}</span> '
        f'<span class="since" data-since="{problem.since}"'
        f' data-clock="{text(venue.clock(problem.since))}">'
        f"{text(since(problem.since, now, venue))}</span>"
        f'<p class="what">{text(problem.what)}</p>'
        f'<p class="todo">{text(problem.todo)}</p>'
        f'<p class="do">{links} {seen}</p>{tables}</li>'
    )


def _which(tables: Sequence[int]) -> str:
    return "The table" if len(tables) == 1 else f"The {len(tables)} tables"


def since(at: float, now: float, venue: Venue) -> str:
    """``since 03:12 CST, 14 min``: when a problem began on the venue's clock (the heading's
    time zone, R1181), and how long ago."""
    seconds = max(0, int(now - at))
    if seconds < 60:
        ago = f"{seconds} s"
    elif seconds < 3600:
        ago = f"{seconds // 60} min"
    else:
        ago = f"{seconds // 3600} h {seconds % 3600 // 60} min"
    return f"since {venue.clock(at)}, {ago}"
