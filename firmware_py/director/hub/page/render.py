"""HTML for the director's pages: one shell, escaped text, tables. Every value that comes from
the record or a table goes through ``escape``; nothing is built from HTML a table sent."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from firmware_py.director.record.venue import Venue

Cell = str | int | None


def text(value: Cell) -> str:
    return "" if value is None else escape(str(value))


def shell(
    title: str,
    body: str,
    *,
    nav: str = "",
    script: bool = False,
    refresh: int | None = None,
    scripts: Sequence[str] = (),
    venue: Venue | None = None,
) -> str:
    """A whole page: the stylesheet, an optional script (the live grid, or ``scripts``), a
    header naming the tournament (``venue``, R962)."""
    named = "gametable" if venue is None else venue.title
    head = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{text(title)} · {text(named)}</title>",
        '<link rel="stylesheet" href="/static/page.css">',
    ]
    if refresh is not None:
        head.append(f'<meta http-equiv="refresh" content="{refresh}">')
    if script:
        head.append('<script src="/static/board.js" defer></script>')
    head += [f'<script src="{text(src)}" defer></script>' for src in scripts]
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n'
        + "\n".join(head)
        + f"\n</head>\n<body>\n<header>{_heading(title, venue)}{nav}</header>\n<main>\n"
        + body
        + "\n</main>\n</body>\n</html>\n"
    )


def _heading(title: str, venue: Venue | None) -> str:
    if venue is None:
        return f"<h1>{text(title)}</h1>"
    return (
        f'<div class="heading"><p class="venue">{text(venue.title)}</p><h1>{text(title)}</h1></div>'
    )


def table(
    headings: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    css: str = "",
    caption: str = "",
    labelled: bool = False,
) -> str:
    """``labelled``: each cell carries its column's heading (``data-label``), for a phone's
    stylesheet to show each row as a card of labelled lines."""
    head = "".join(f'<th scope="col">{text(h)}</th>' for h in headings)
    labels = [f' data-label="{text(h)}"' if labelled else "" for h in headings]
    body = "".join(
        "<tr>"
        + "".join(f"<td{label}>{text(cell)}</td>" for label, cell in zip(labels, row, strict=True))
        + "</tr>"
        for row in rows
    )
    cap = f"<caption>{text(caption)}</caption>" if caption else ""
    cls = f' class="{css}"' if css else ""
    return f"<table{cls}>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def linked_table(
    headings: Sequence[str], rows: Iterable[Sequence[tuple[Cell, str | None]]], *, css: str = ""
) -> str:
    """A table whose cells may each be a link: (text, href or None)."""
    head = "".join(f'<th scope="col">{text(h)}</th>' for h in headings)
    body = "".join(
        "<tr>" + "".join(_cell(cell, href) for cell, href in row) + "</tr>" for row in rows
    )
    cls = f' class="{css}"' if css else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(cell: Cell, href: str | None) -> str:
    if href is None:
        return f"<td>{text(cell)}</td>"
    return f'<td><a href="{text(href)}">{text(cell)}</a></td>'


def line(message: str | None, css: str) -> str:
    """One line of notice or error, with the role a screen reader announces."""
    if not message:
        return ""
    role = "alert" if css == "error" else "status"
    return f'<p class="{css}" role="{role}">{text(message)}</p>'


def hidden(name: str, value: str) -> str:
    return f'<input type="hidden" name="{text(name)}" value="{text(value)}">'
