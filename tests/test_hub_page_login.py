"""The director's password and sessions (page/password.py, page/sessions.py): a salted scrypt
hash beside the record, never the password; random session and CSRF tokens that expire; wrong
passwords slow their address down."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from firmware_py.director.hub.page.session_file import SessionFile
from firmware_py.director.hub.page.sessions import (
    FREE_TRIES,
    SESSION_SECONDS,
    AccessError,
    DirectorSessions,
    token_key,
)
from firmware_py.director.hub.staff_password import (
    DirectorPasswordError,
    password_path,
    read_stored,
    store_password,
    verify_password,
)

ADDRESS = "192.0.2.7"
SAM = ("sam", "a1b2c3")  # an account's name and stamp


def test_the_password_is_kept_as_a_salted_hash_beside_the_record(tmp_path: Path) -> None:
    record = tmp_path / "tournament.db"
    path = store_password(record, "correct horse battery")
    assert path == password_path(record) == tmp_path / "tournament.db.director"
    line = path.read_text()
    assert "correct horse" not in line and line.startswith("scrypt$")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = read_stored(record)
    assert stored is not None
    assert verify_password(stored, "correct horse battery")
    assert not verify_password(stored, "correct horse batterY")


def test_the_same_password_twice_gives_two_hashes(tmp_path: Path) -> None:
    first = tmp_path / "a.db"
    second = tmp_path / "b.db"
    store_password(first, "correct horse battery")
    store_password(second, "correct horse battery")
    assert read_stored(first) != read_stored(second)


def test_no_password_set_reads_as_none(tmp_path: Path) -> None:
    assert read_stored(tmp_path / "tournament.db") is None


@pytest.mark.parametrize("password", ["short", "x" * 257, "tab\there and more"])
def test_a_password_too_short_too_long_or_not_printable_is_refused(
    tmp_path: Path, password: str
) -> None:
    with pytest.raises(DirectorPasswordError, match="expected 10 to 256 printable"):
        store_password(tmp_path / "tournament.db", password)
    assert not password_path(tmp_path / "tournament.db").exists()


def test_a_damaged_password_file_is_one_line_naming_it(tmp_path: Path) -> None:
    password_path(tmp_path / "tournament.db").write_text("plaintext\n")
    with pytest.raises(DirectorPasswordError, match=r"db\.director: not a password line"):
        read_stored(tmp_path / "tournament.db")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_session_has_random_tokens_and_is_found_by_its_cookie() -> None:
    sessions = DirectorSessions(clock=Clock(), wall=Clock())
    (first, one), (second, two) = sessions.open(ADDRESS, *SAM), sessions.open(ADDRESS, *SAM)
    assert len({first, one.csrf, second, two.csrf}) == 4
    assert len(first) >= 40
    assert sessions.session(first) == one
    assert (one.account, one.stamp) == SAM


def test_a_session_keeps_only_its_tokens_hash() -> None:
    sessions = DirectorSessions(clock=Clock(), wall=Clock())
    token, session = sessions.open(ADDRESS, *SAM)
    assert token not in repr(session) and session.key == token_key(token)


def test_a_session_ends_after_its_time_on_the_wall_clock() -> None:
    wall = Clock()
    sessions = DirectorSessions(clock=Clock(), wall=wall)
    token, _ = sessions.open(ADDRESS, *SAM)
    wall.now = SESSION_SECONDS - 1
    assert sessions.session(token) is not None
    wall.now = SESSION_SECONDS
    assert sessions.session(token) is None


def test_a_change_needs_the_session_and_its_csrf_token() -> None:
    sessions = DirectorSessions(clock=Clock(), wall=Clock())
    token, session = sessions.open(ADDRESS, *SAM)
    assert sessions.require(token, session.csrf) == session
    with pytest.raises(AccessError, match="log in first"):
        sessions.require(None, session.csrf)
    with pytest.raises(AccessError, match="security token is missing or stale"):
        sessions.require(token, None)
    with pytest.raises(AccessError, match="security token is missing or stale"):
        sessions.require(token, "guessed")


def test_logout_ends_the_session() -> None:
    sessions = DirectorSessions(clock=Clock(), wall=Clock())
    token, _ = sessions.open(ADDRESS, *SAM)
    sessions.close(token)
    assert sessions.session(token) is None


def test_sessions_kept_in_their_file_are_found_by_a_new_hub(tmp_path: Path) -> None:
    file = SessionFile(tmp_path / "t.db.sessions")
    token, session = DirectorSessions(clock=Clock(), wall=Clock(), file=file).open(ADDRESS, *SAM)
    again = DirectorSessions(clock=Clock(), wall=Clock(), file=file)
    assert again.session(token) == session
    assert stat.S_IMODE(file.path.stat().st_mode) == 0o600
    assert token not in file.path.read_text()


def test_a_logout_and_an_end_are_kept_in_the_file(tmp_path: Path) -> None:
    file, wall = SessionFile(tmp_path / "t.db.sessions"), Clock()
    sessions = DirectorSessions(clock=Clock(), wall=wall, file=file)
    (left, _), (stays, _) = sessions.open(ADDRESS, *SAM), sessions.open(ADDRESS, *SAM)
    sessions.close(left)
    assert DirectorSessions(clock=Clock(), wall=wall, file=file).session(left) is None
    wall.now = SESSION_SECONDS
    assert DirectorSessions(clock=Clock(), wall=wall, file=file).session(stays) is None


@pytest.mark.parametrize("content", ["not json", '{"sessions": [{"key": 1}]}', "[]"])
def test_an_unreadable_sessions_file_is_read_as_no_session_and_logged(
    tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture
) -> None:
    file = SessionFile(tmp_path / "t.db.sessions")
    file.path.write_text(content)
    assert file.load() == []
    assert "event=page_sessions_unread" in caplog.text


def test_wrong_passwords_make_their_address_wait_longer_each_time() -> None:
    clock = Clock()
    sessions = DirectorSessions(clock=clock)
    for _ in range(FREE_TRIES - 1):
        sessions.check_may_try(ADDRESS)
        sessions.wrong_password(ADDRESS)
    sessions.check_may_try(ADDRESS)
    assert "try again in 2 s" in str(sessions.wrong_password(ADDRESS))
    with pytest.raises(AccessError, match="try again in 2 s"):
        sessions.check_may_try(ADDRESS)
    sessions.check_may_try("192.0.2.8")  # another address is not held up
    clock.now += 2
    sessions.check_may_try(ADDRESS)
    assert "try again in 4 s" in str(sessions.wrong_password(ADDRESS))


def test_a_good_login_clears_the_wait() -> None:
    clock = Clock()
    sessions = DirectorSessions(clock=clock)
    for _ in range(FREE_TRIES):
        sessions.wrong_password(ADDRESS)
    clock.now += 2
    sessions.open(ADDRESS, *SAM)
    sessions.wrong_password(ADDRESS)
    sessions.check_may_try(ADDRESS)
