"""``gametable hub run|users|staff|director-password`` (docs/hub.md).

``run`` is the hub: the tables' results into the tournament record, the pairings out to the
tables, and the director's page, until SIGTERM. ``users`` adds or changes an account in the
broker's password file; ``staff`` adds, lists, removes or changes the page's staff accounts
(kept in the record: R810); ``director-password`` sets the password of the account
``director``. A password is asked on the terminal or read from stdin, never from the command
line. Bad input is one line on stderr and exit 2, with nothing changed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import logging
import os
import signal
import socket
import sqlite3
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_py.cli_args import file_path, print_error, whole_number
from firmware_py.director.hub.bridges import (
    BRIDGE_PREFIX,
    BridgeError,
    add_bridge_acl,
    bridge_account,
    check_acl_file,
    check_bridge_password,
    is_bridge_account,
)
from firmware_py.director.hub.page.privacy import PublicNames, public_names_error
from firmware_py.director.hub.passwords import (
    HUB_USER,
    MODE,
    PasswordError,
    check_password,
    check_user,
    new_password,
    read_accounts,
    set_password,
)
from firmware_py.director.hub.staff import (
    DIRECTOR_ACCOUNT,
    NAMELESS_ENDS,
    ROLE_WORDS,
    Role,
    StaffRecord,
    check_name,
    hash_new_password,
    parse_role,
)
from firmware_py.director.hub.staff_events import StaffEvents
from firmware_py.director.hub.staff_password import (
    MAX_LENGTH,
    DirectorPasswordError,
    check_new_password,
)
from firmware_py.director.record.day import DayRecord, is_day_file
from firmware_py.director.record.teams import prepare_team_edits
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.tournament_cli import DEFAULT_DB
from firmware_py.table.notify import Notifier
from firmware_py.table.uplink import PasswordFileError, read_password
from firmware_py.user_files import CA_HOLDS, UserFileError, require_regular_file
from rules.errors import RuleError

if TYPE_CHECKING:  # paho and aiohttp load only when the hub runs
    from firmware_py.director.hub.page.server import DayPage, DirectorPage
    from firmware_py.director.hub.wire.service import Hub

BAD_INPUT = 2
RECORD_BUSY = 1  # not 2: systemd starts the hub again (RestartPreventExitStatus=2 does not)
DEFAULT_PAGE = "127.0.0.1:8080"
log = logging.getLogger("gametable")


class HubInputError(Exception):
    """Bad input to ``gametable hub``; ``str()`` is the one line to show."""


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    hub = commands.add_parser("hub", help="the tournament hub: results and pairings over MQTT")
    sub = hub.add_subparsers(dest="hub_command", required=True, parser_class=type(hub))

    run = sub.add_parser("run", help="run the hub (systemd: gametable-hub.service)")
    run.add_argument("--db", type=file_path, help=f"the tournament record (default: {DEFAULT_DB})")
    run.add_argument(
        "--day",
        type=file_path,
        metavar="DAY",
        help="a day of several events (gametable day new): every event's tables, instead of --db",
    )
    run.add_argument("--host", default="localhost", help="the broker (default: localhost)")
    run.add_argument(
        "--port", type=whole_number, default=1883, help="the broker's port (default: 1883)"
    )
    run.add_argument("--username", default="hub", help="the hub's account (default: hub)")
    run.add_argument(
        "--password-file", type=file_path, required=True, help="the hub's password, on one line"
    )
    run.add_argument("--ca-file", type=file_path, help="TLS: the CA of the broker's certificate")
    run.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    run.add_argument(
        "--page",
        default=DEFAULT_PAGE,
        metavar="HOST:PORT",
        help=f"the director's page: where it listens, or off (default: {DEFAULT_PAGE})",
    )
    run.add_argument(
        "--page-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the page is opened by, like hub.local (repeatable; besides localhost, the "
        "machine's own name, its .local name and any address: docs/hub.md)",
    )
    run.add_argument("--page-cert", type=file_path, help="TLS for the page: its certificate (PEM)")
    run.add_argument("--page-key", type=file_path, help="TLS for the page: its private key (PEM)")
    run.add_argument(
        "--public-names",
        default=PublicNames.TEAMS.value,
        metavar="WHAT",
        help="what the public page shows of people: teams (default), players or none",
    )

    director = sub.add_parser(
        "director-password", help="set the password the director logs in with on the hub's page"
    )
    director.add_argument("record", type=file_path, metavar="RECORD", help="the tournament record")
    director.add_argument(
        "--stdin",
        action="store_true",
        help="read it from stdin's first line (default: asked twice on the terminal)",
    )

    _add_staff_parser(sub)

    users = sub.add_parser("users", help="add or change an account in the broker's password file")
    users.add_argument(
        "file",
        type=file_path,
        metavar="PASSWD",
        help="mosquitto's password file (created if missing)",
    )
    users.add_argument("account", help="a table's number, or hub (a hall's name with --bridge)")
    _add_bridge_options(users)
    source = users.add_mutually_exclusive_group()
    source.add_argument(
        "--from", type=file_path, dest="from_file", metavar="PATH", help="the password: PATH's line"
    )
    source.add_argument(
        "--generate",
        type=file_path,
        metavar="PATH",
        help="make a new password and write it to PATH (a new file)",
    )


def _add_bridge_options(users: argparse.ArgumentParser) -> None:
    """``users PASSWD HALL --bridge``: a hall's bridge, its account and its ACL lines (R1000)."""
    users.add_argument(
        "--bridge",
        action="store_true",
        help="the account is a hall's name: its broker's bridge (bridge-HALL) and its ACL lines",
    )
    users.add_argument(
        "--acl",
        type=file_path,
        metavar="PATH",
        help="with --bridge: the central broker's ACL file (default: gametable.acl beside PASSWD)",
    )


def _add_staff_parser(sub: argparse._SubParsersAction[Any]) -> None:
    staff = sub.add_parser("staff", help="the staff accounts of the hub's page (docs/hub.md)")
    actions = staff.add_subparsers(dest="staff_command", required=True, parser_class=type(staff))

    def action(name: str, helped: str, *, named: bool = True) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = actions.add_parser(name, help=helped)
        if named:
            parser.add_argument("name", metavar="NAME", help="the account's name, like sam")
        parser.add_argument(
            "--db", type=file_path, default=DEFAULT_DB, help="the tournament record"
        )
        return parser

    for name, helped in (
        ("add", "add an account (its password asked, or read with --stdin)"),
        ("password", "change an account's password"),
    ):
        parser = action(name, helped)
        parser.add_argument(
            "--stdin",
            action="store_true",
            help="read the password from stdin's first line (default: asked twice)",
        )
        parser.add_argument("--by", default="director", help="who adds it (default: director)")
        if name == "add":
            parser.add_argument(
                "--role", required=True, help="director, results or viewer (docs/hub.md)"
            )
            parser.add_argument(
                "--event",
                metavar="SLUG",
                help="with --db DAY: staff of this event of the day alone (R1142)",
            )
    action("list", "list the accounts and their roles", named=False)
    remove = action("remove", "remove an account: its sessions on the page end at once")
    remove.add_argument("--by", default="director", help="who removes it (default: director)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.hub_command == "users":
            return _users(args)
        if args.hub_command == "director-password":
            return _director_password(args)
        if args.hub_command == "staff":
            return _staff(args)
        return _run(args)
    except (
        HubInputError,
        PasswordError,
        BridgeError,
        PasswordFileError,
        DirectorPasswordError,
        RuleError,
    ) as error:
        print_error(error)
        return BAD_INPUT
    except sqlite3.OperationalError as error:
        where = _named_record(args)
        if not _busy(error):
            print_error(f"{where}: {error}")
            return BAD_INPUT
        # a director's command holding the record as the hub starts: a moment, not bad input
        print_error(f"{where} is busy ({error}): another command holds it; try again (R715)")
        return RECORD_BUSY
    except sqlite3.Error as error:
        print_error(f"{_named_record(args)}: {error}")
        return BAD_INPUT
    except OSError as error:  # a path the system refuses outright (too long, a loop)
        print_error(f"{error.filename or '?'}: {error.strerror or error}")
        return BAD_INPUT


def _named_record(args: argparse.Namespace) -> object:
    """The file a command works on, as its error names it."""
    return getattr(args, "day", None) or getattr(args, "db", None) or args.record


# --- users -------------------------------------------------------------------------------------


def _users(args: argparse.Namespace) -> int:
    if args.bridge or args.acl is not None:
        return _bridge_user(args)
    if is_bridge_account(args.account):
        hall = args.account.removeprefix(BRIDGE_PREFIX)
        raise HubInputError(
            f"{args.account} is hall {hall}'s bridge: give {hall} --bridge (it adds its ACL "
            "lines too)"
        )
    user = check_user(args.account)
    read_accounts(args.file)  # a file that cannot be changed is said before a secret is made
    if args.generate is not None:
        password = new_password()
        _write_new_secret(args.generate, password)  # first: a password file is never orphaned
    elif args.from_file is not None:
        password = read_password(args.from_file)
    else:
        password = _asked()
    check_password(password)
    try:
        new, writer = set_password(args.file, user, password)
    except PasswordError:
        if args.generate is not None:
            args.generate.unlink(missing_ok=True)
        raise
    who = "the hub" if user == HUB_USER else f"table {user}"
    print(f"{who} {'added to' if new else 'changed in'} {args.file} by {writer}")
    if args.generate is not None:
        reader = (
            "gametable hub run --password-file"
            if user == HUB_USER
            else f"table {user}'s [hub] password_file"
        )
        print(f"its password is in {args.generate}: for {reader}")
    print("the broker reads it on reload: systemctl reload mosquitto")
    return 0


def _bridge_user(args: argparse.Namespace) -> int:
    """A hall's bridge: its lines in the central ACL, then its account (R1000, R1001)."""
    if not args.bridge:
        raise HubInputError("--acl is for a hall's bridge: expected HALL --bridge with it")
    hall = args.account
    user = bridge_account(hall)
    acl = args.acl if args.acl is not None else args.file.parent / "gametable.acl"
    read_accounts(args.file)
    check_acl_file(acl)  # both files usable before a secret is made or either is changed
    password = _password_for_users(args)
    with _forgotten_if_refused(args):
        check_bridge_password(password)
        # the ACL first: lines for an account that cannot log in yet open nothing
        acl_added = add_bridge_acl(acl, user)
        new, writer = set_password(args.file, user, password)
    print(
        f"hall {hall}'s bridge ({user}) {'added to' if new else 'changed in'} "
        f"{args.file} by {writer}"
    )
    print(f"its ACL lines {'added to' if acl_added else 'were already in'} {acl}")
    if args.generate is not None:
        print(
            f"its password is in {args.generate}: for hall {hall}'s broker "
            f"(systemd/install.sh --hall CENTRAL_HOST --hall-name {hall} "
            f"--bridge-password {args.generate.name})"
        )
    print("the broker reads them on reload: systemctl reload mosquitto")
    return 0


def _password_for_users(args: argparse.Namespace) -> str:
    """The account's new password: made (and written to --generate's new file), read from
    --from's file, or asked; checked."""
    if args.generate is not None:
        password = new_password()
        _write_new_secret(args.generate, password)  # first: a password file is never orphaned
    elif args.from_file is not None:
        password = read_password(args.from_file)
    else:
        password = _asked()
    return check_password(password)


@contextlib.contextmanager
def _forgotten_if_refused(args: argparse.Namespace) -> Iterator[None]:
    """A secret --generate wrote is removed if what follows is refused: never orphaned."""
    try:
        yield
    except (PasswordError, BridgeError):
        if args.generate is not None:
            args.generate.unlink(missing_ok=True)
        raise


# --- director-password -------------------------------------------------------------------------


def _director_password(args: argparse.Namespace) -> int:
    """The account ``director``'s password (made with it if there is none), in the record."""
    with _staff_holder(args.record) as record:  # a record or a day, or one line saying why not
        password = _new_password(args.stdin, "the director's password: ")
        StaffRecord(record).set_password(
            DIRECTOR_ACCOUNT, hash_new_password(password), now=utc_now(), by=DIRECTOR_ACCOUNT
        )
    print(f"the director's password for {args.record} is set (its hash is in the record)")
    print("the hub's page asks for it at the next login: no restart needed")
    return 0


def _new_password(from_stdin: bool, prompt: str) -> str:
    """A new password: stdin's first line, or asked twice on the terminal; checked."""
    if from_stdin:
        password = _first_line_of_stdin()
    elif sys.stdin.isatty():
        password = getpass.getpass(prompt)
        check_new_password(password)
        if getpass.getpass("again: ") != password:
            raise HubInputError("the two passwords differ: nothing changed")
    else:
        raise HubInputError("stdin is not a terminal: give --stdin to read the password from it")
    return check_new_password(password)


# --- staff -------------------------------------------------------------------------------------


def _staff_holder(path: Path) -> TournamentDB | DayRecord:
    """Where the page's staff accounts are: a day's (``hub run --day``: R1141) or a record's."""
    return DayRecord.open(path) if is_day_file(path) else TournamentDB.open(path)


def _staff_event(
    args: argparse.Namespace, holder: TournamentDB | DayRecord, role: Role | None
) -> str | None:
    """The one event ``staff add --event`` limits an account to (R1142), checked."""
    event: str | None = getattr(args, "event", None)
    if event is None:
        return None
    if not isinstance(holder, DayRecord):
        raise HubInputError(
            f"--event {event}: {args.db} is one tournament's record, whose staff are its own: "
            "give --event with a day (--db DAY)"
        )
    holder.event(event)  # an event of the day, or one line naming those there are
    if role is Role.DIRECTOR:
        raise HubInputError(
            "a director is every event's director: expected --role results or viewer with "
            "--event, or no --event"
        )
    return event


def _staff(args: argparse.Namespace) -> int:
    with _staff_holder(args.db) as record:
        staff = StaffRecord(record)
        if args.staff_command == "list":
            accounts = staff.accounts()
            if not accounts:
                print(f"no staff account in {args.db}: add one with 'gametable hub staff add'")
            for account in accounts:
                since = (
                    f"from {account.changed_by}"
                    if account.in_file
                    else f"since {account.changed_at} by {account.changed_by}"
                )
                scope = ""
                if isinstance(record, DayRecord):  # a day's account: every event, or one
                    scope = f"\t{StaffEvents(record).event_of(account.name) or 'every event'}"
                print(f"{account.name}\t{account.role.value}{scope}\t{since}")
            return 0
        name = check_name(args.name)
        if args.staff_command == "remove":
            removed = staff.remove(name, now=utc_now(), by=args.by)
            print(f"{name} ({ROLE_WORDS[removed.role]}) removed: their sessions on the page end")
            if name == DIRECTOR_ACCOUNT:
                print(NAMELESS_ENDS)
            return 0
        role = parse_role(args.role) if args.staff_command == "add" else None
        if name == DIRECTOR_ACCOUNT and role not in (None, Role.DIRECTOR):
            raise HubInputError(f"the account {name!r} is the director's: expected --role director")
        event = _staff_event(args, record, role)  # refused before a password is asked
        hashed = hash_new_password(_new_password(args.stdin, f"{name}'s password: "))
        if role is not None:
            added = staff.add(name, role, hashed, now=utc_now(), by=args.by)
            if isinstance(record, DayRecord):  # every event, or one (R1142)
                StaffEvents(record).limit(name, event, now=utc_now(), by=args.by)
            of = "" if event is None else f", of the event {event!r} alone"
            print(f"{name} added to {args.db} ({ROLE_WORDS[added.role]}{of})")
        else:
            staff.set_password(name, hashed, now=utc_now(), by=args.by)
            print(f"{name}'s password changed: their sessions on the page end")
    return 0


def _first_line_of_stdin() -> str:
    line = sys.stdin.readline(MAX_LENGTH + 2)  # a password and its line break, no more
    if not line:
        raise HubInputError("no password on stdin: expected it on the first line")
    return line.removesuffix("\n").removesuffix("\r")


def _asked() -> str:
    """Twice on a terminal; else the first line of stdin."""
    if sys.stdin.isatty():
        first = getpass.getpass("password: ")
        if getpass.getpass("again: ") != first:
            raise HubInputError("the two passwords differ: nothing changed")
        return first
    return _first_line_of_stdin()


def _write_new_secret(path: Path, password: str) -> None:
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, MODE)
    except FileExistsError:
        raise HubInputError(f"{path} exists: --generate writes a new file") from None
    except OSError as error:
        raise HubInputError(f"cannot write {path}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(password + "\n")
    os.chmod(path, MODE)  # whatever the umask took off


# --- run ---------------------------------------------------------------------------------------


def _run(args: argparse.Namespace) -> int:
    from firmware_py.director.hub.page.server import (
        DirectorPage,
        PageSetupError,
        listen,
        parse_listen,
        tls,
    )
    from firmware_py.table.web.guard import served_names

    _check_run_options(args)
    page_off = args.page == "off"
    try:
        password = read_password(args.password_file)
    except PasswordFileError as error:
        raise HubInputError(f"--password-file: {error}") from None
    if args.day is not None:
        return _run_day(args, password)
    args.db = DEFAULT_DB if args.db is None else args.db
    record = TournamentDB.open(args.db)
    page: DirectorPage | None = None
    try:
        staff = StaffRecord(record)
        staff.accounts()  # a damaged director's password file: said now, not at a login
        hub = _hub(record, args, password)
        if not page_off:  # the last check: nothing else can fail once the port is taken
            try:
                context = None if args.page_cert is None else tls(args.page_cert, args.page_key)
                page_host, page_port = parse_listen(args.page)
                sock = listen(page_host, page_port)
            except PageSetupError as error:
                raise HubInputError(str(error)) from None
            page = DirectorPage(
                sock,
                record,
                hub.board,
                utc_now,
                tls=context,
                after_change=hub.record_changed,
                names=served_names(page_host, args.page_name, socket.gethostname()),
                refusals=hub.refusals,
                public_names=PublicNames(args.public_names),
            )
            hub.on_board = page.changed
        logging.basicConfig(
            stream=sys.stdout, level=args.log_level, format="%(levelname)s %(message)s"
        )
        _bring_up_to_date(record, args.db, now=utc_now())
        if staff.migrate(now=utc_now()):  # R812
            log.info("event=staff_migrated record=%s account=%s", args.db, DIRECTOR_ACCOUNT)
        if page is not None and not staff.accounts():
            log.warning("event=page_no_password hint='gametable hub director-password %s'", args.db)
        return asyncio.run(_until_signalled(hub, page))
    finally:
        if page is not None:
            page.sock.close()
        record.close()


def _run_day(args: argparse.Namespace, password: str) -> int:
    """``hub run --day``: every event of the day on one hub and one page (R1116,
    R1120-R1125, R1140-R1144)."""
    from firmware_py.director.hub.page.day import day_pages
    from firmware_py.director.hub.page.server import DayPage, PageSetupError, listen, parse_listen
    from firmware_py.director.hub.page.server import tls as page_tls
    from firmware_py.table.web.guard import served_names

    # a day, or one line saying why not (a tournament record: hub run names it with --db)
    day = DayRecord.open(args.day, record_advice=f"name it with --db {args.day}")
    hub: Hub | None = None
    page: DayPage | None = None
    try:
        staff = StaffRecord(day)
        staff.accounts()  # a damaged director's password file: said now, not at a login
        hub = _hub(day, args, password)
        if not hub.events:
            raise HubInputError(
                f"{args.day} has no event yet: add one with 'gametable day event {args.day}'"
            )
        if args.page != "off":  # the last check: nothing else can fail once the port is taken
            try:
                context = (
                    None if args.page_cert is None else page_tls(args.page_cert, args.page_key)
                )
                page_host, page_port = parse_listen(args.page)
                sock = listen(page_host, page_port)
            except PageSetupError as error:
                raise HubInputError(str(error)) from None
            page = DayPage(
                day_pages(
                    day,
                    hub.events,
                    hub.board,
                    hub.refusals,
                    sock=sock,
                    now=utc_now,
                    tls=context,
                    after_change=hub.record_changed,
                    names=served_names(page_host, args.page_name, socket.gethostname()),
                    public_names=PublicNames(args.public_names),
                )
            )
            hub.on_board = page.changed
        logging.basicConfig(
            stream=sys.stdout, level=args.log_level, format="%(levelname)s %(message)s"
        )
        for slug, record in hub.events.items():
            _bring_up_to_date(record, record.path, now=utc_now(), event=slug)
        if staff.migrate(now=utc_now()):  # R812
            log.info("event=staff_migrated day=%s account=%s", args.day, DIRECTOR_ACCOUNT)
        if page is not None and not staff.accounts():
            log.warning(
                "event=page_no_password hint='gametable hub director-password %s'", args.day
            )
        return asyncio.run(_until_signalled(hub, page))
    finally:
        if page is not None:
            page.pages.lobby.sock.close()
        if hub is not None:
            hub.router.close()
        day.close()


def _hub(record: TournamentDB | DayRecord, args: argparse.Namespace, password: str) -> Hub:
    """The hub on the broker ``args`` name, its CA file checked first."""
    from firmware_py.director.hub.wire.service import Hub, HubBroker

    ca_file = None if args.ca_file is None else str(args.ca_file)
    try:
        if args.ca_file is not None:  # OpenSSL would wait forever on a FIFO (R947)
            require_regular_file(args.ca_file, CA_HOLDS)
    except UserFileError as error:
        raise HubInputError(f"--ca-file: {error}") from None
    try:
        return Hub(
            record,
            HubBroker(args.host, args.port, args.username, password, ca_file),
            notifier=Notifier.from_environ(),
        )
    except (OSError, ValueError) as error:  # paho reading the CA file
        raise HubInputError(f"--ca-file {args.ca_file}: {_why(error)}") from None


def _bring_up_to_date(
    record: TournamentDB, path: Path, *, now: str, event: str | None = None
) -> None:
    """What a record made by an older gametable lacks, added once, each said in the log (with
    the event it is, in a day: R1123)."""
    where = f"{path}" if event is None else f"{path} for_event={event}"
    if record.upgrade_for_hub():
        log.info("event=record_upgraded record=%s schema=2", where)
    if record.index_for_hub():  # R725: a record made before them
        log.info("event=record_indexed record=%s", where)
    if record.keep_short_names(now=now, by="hub"):  # R832: a record made before them
        log.info("event=record_short_names record=%s", where)
    if record.upgrade_for_undo():  # R820: so it sees a pairing a command undoes
        log.info("event=record_upgraded record=%s schema=%d", where, record.schema)
    if prepare_team_edits(record):  # R1067: so it reads a team a command edits
        log.info("event=record_team_edits record=%s", where)


def _check_run_options(args: argparse.Namespace) -> None:
    """``run``'s options that cannot go together or are not what they must be, in one line."""
    from firmware_py.table.web.guard import name_error

    if args.day is not None and args.db is not None:
        raise HubInputError(
            "--day and --db: expected one (a day serves every event's record; --db one record)"
        )
    if not 1 <= args.port <= 65535:
        raise HubInputError(f"--port {args.port}: expected 1 to 65535")
    if (args.page_cert is None) != (args.page_key is None):
        raise HubInputError("--page-cert and --page-key go together: expected both, or neither")
    page_off = args.page == "off"
    if page_off and args.page_cert is not None:
        raise HubInputError("--page off with --page-cert: expected a page to serve over TLS")
    if page_off and args.page_name:
        raise HubInputError("--page off with --page-name: expected a page to serve by that name")
    for name in args.page_name:
        if (wrong := name_error(name)) is not None:
            raise HubInputError(f"--page-name {name}: {wrong}")
    if (wrong := public_names_error(args.public_names)) is not None:
        raise HubInputError(f"--public-names {wrong}")


def utc_now() -> str:
    """The record's time of a change (as the hub's service keeps it)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def _busy(error: sqlite3.OperationalError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _why(error: Exception) -> str:
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


async def _until_signalled(hub: Hub, page: DirectorPage | DayPage | None) -> int:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, hub.stop)
    if page is not None:
        await page.start()
    try:
        code: int = await hub.run()
    finally:
        if page is not None:
            await page.stop()
    return code
