"""The staff accounts as a director manages them on the page (``/staff``): each account's
name, role, and who last changed it and when; a form to add one; a button to remove one
(R811). Passwords are never shown: the record keeps only their hashes."""

from __future__ import annotations

from collections.abc import Sequence

from firmware_py.director.hub.page.render import hidden, line, shell, text
from firmware_py.director.hub.page.views import Viewer, staff_nav
from firmware_py.director.hub.staff import Role, StaffAccount
from firmware_py.director.record.venue import Venue

ROLE_DOES = {
    Role.DIRECTOR: (
        "pairs rounds, enters and amends results, withdraws a team, holds or releases the "
        "standings, manages the staff"
    ),
    Role.RESULTS: "enters a match's first result, marks check-in; sees every staff view",
    Role.VIEWER: "sees every staff view (game leaders); changes nothing",
}


def staff_page(accounts: Sequence[StaffAccount], viewer: Viewer, venue: Venue | None = None) -> str:
    assert viewer.csrf is not None
    rows = "".join(_row(account, viewer.csrf, venue or Venue()) for account in accounts)
    roles = "".join(f"<dt>{role.value}</dt><dd>{text(ROLE_DOES[role])}</dd>" for role in Role)
    options = "".join(
        f'<option value="{role.value}"{" selected" if role is Role.RESULTS else ""}>'
        f"{text(role.value)}</option>"
        for role in Role
    )
    body = f"""{line(viewer.notice, "notice")}{line(viewer.error, "error")}
<section aria-labelledby="accounts-title"><h2 id="accounts-title">Accounts</h2>
<table class="staff"><thead><tr><th scope="col">name</th><th scope="col">role</th>
<th scope="col">last changed</th><th scope="col"></th></tr></thead>
<tbody>{rows}</tbody></table>
<dl class="facts roles">{roles}</dl></section>
<section aria-labelledby="add-title" class="card"><h2 id="add-title">Add an account</h2>
<form method="post" action="/staff/add" id="staff-form" autocomplete="off">
{hidden("csrf", viewer.csrf)}
<label>Name <input name="name" required maxlength="32" pattern="[a-z0-9][a-z0-9._\\-]*"
autocapitalize="none" spellcheck="false"></label>
<label>Role <select name="role">{options}</select></label>
<label class="wide">Password (10 to 256 characters)
<input name="password" type="password" required minlength="10" maxlength="256"
autocomplete="new-password"></label>
<button type="submit">Add the account</button></form></section>"""
    return shell("Staff", body, nav=staff_nav(viewer), venue=venue)


def _row(account: StaffAccount, csrf: str, venue: Venue) -> str:
    if account.in_file:
        changed = f"the password file {account.changed_by}"
    else:
        changed = f"{venue.when(account.changed_at)} by {account.changed_by}"
    # Remove ends the account's sessions at once: it asks first (the Confirm in the row)
    remove = (
        f'<details class="remove"><summary aria-label="Remove {text(account.name)}…">Remove…'
        f"</summary><p>Remove {text(account.name)}? Their sessions end at once; the account "
        "stays in the record as removed.</p>"
        '<form method="post" action="/staff/remove" class="inline">'
        + hidden("csrf", csrf)
        + hidden("name", account.name)
        + '<button type="submit" name="confirm" value="yes" class="danger">'
        f"Confirm: remove {text(account.name)}</button></form></details>"
    )
    return (
        f'<tr id="staff-{text(account.name)}"><td>{text(account.name)}</td>'
        f"<td>{text(account.role.value)}</td>"
        f"<td>{text(changed)}</td><td>{remove}</td></tr>"
    )
