"""The systemd unit and its installer: every required directive, systemd's own verdict, and an
installer that plans each step and never writes outside its prefix."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "gametable.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXEC_START = "/opt/gametable/.venv/bin/gametable run --config /etc/gametable/table.toml"

Unit = dict[str, dict[str, list[str]]]


def parse_unit(text: str) -> Unit:
    """Sections of key -> every value assigned, in order (DeviceAllow= and friends repeat)."""
    unit: Unit = {}
    section: dict[str, list[str]] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        assert not line.endswith("\\"), f"line {number}: keep directives on one line"
        if line.startswith("[") and line.endswith("]"):
            section = unit.setdefault(line[1:-1], {})
            continue
        assert section is not None, f"line {number}: directive before any section"
        key, sep, value = line.partition("=")
        assert sep, f"line {number}: not key=value: {raw}"
        section.setdefault(key.strip(), []).append(value.strip())
    return unit


@pytest.fixture(scope="module")
def unit() -> Unit:
    return parse_unit(UNIT.read_text(encoding="utf-8"))


def service(unit: Unit, key: str) -> str:
    """The effective (last) value of a [Service] directive."""
    values = unit["Service"].get(key)
    assert values, f"[Service] has no {key}="
    return values[-1]


# the unit's directives


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("Type", "notify"),
        ("NotifyAccess", "main"),
        ("ExecStart", EXEC_START),
        ("WatchdogSec", "10s"),
        # the loop runs the moment its deadline comes, however busy the cores (R1083)
        ("CPUSchedulingPolicy", "rr"),
        ("CPUSchedulingPriority", "1"),
        ("Restart", "on-failure"),
        ("RestartSec", "2s"),
        ("RestartPreventExitStatus", "2"),  # bad input: a restart cannot mend it
        ("User", "gametable"),
        ("Group", "gametable"),
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("StateDirectory", "gametable"),
        ("StateDirectoryMode", "0750"),
        ("UMask", "0027"),
        ("ProtectKernelTunables", "yes"),
        ("ProtectControlGroups", "yes"),
        ("LockPersonality", "yes"),
        ("MemoryDenyWriteExecute", "yes"),
        ("DevicePolicy", "closed"),
        # IP for the tournament's broker ([hub]); the daemon listens on nothing
        ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"),
    ],
)
def test_the_service_sets(unit: Unit, key: str, value: str) -> None:
    assert service(unit, key) == value


def test_the_service_joins_the_hardware_groups(unit: Unit) -> None:
    assert service(unit, "SupplementaryGroups").split() == ["gpio", "i2c", "spi", "dialout"]


def test_the_unit_needs_a_gpio_chip(unit: Unit) -> None:
    assert unit["Unit"]["ConditionPathExists"] == ["/dev/gpiochip0"]


def test_the_daemon_never_remains_after_exit(unit: Unit) -> None:
    assert "RemainAfterExit" not in unit["Service"]


@pytest.mark.parametrize("group", ["gpiochip", "i2c", "spi", "ttyUSB", "ttyACM"])
def test_the_table_hardware_is_allowed(unit: Unit, group: str) -> None:
    assert f"char-{group} rw" in unit["Service"]["DeviceAllow"]


def test_device_groups_are_loaded_before_the_allow_list_is_resolved(unit: Unit) -> None:
    # systemd resolves char-* groups once, at start: the drivers must be loaded by then.
    wants = " ".join(unit["Unit"]["Wants"]).split()
    after = " ".join(unit["Unit"]["After"]).split()
    for module in ("i2c_dev", "spidev", "usbserial", "cdc_acm"):
        assert f"modprobe@{module}.service" in wants
        assert f"modprobe@{module}.service" in after


@pytest.mark.parametrize(
    "key",
    [
        "PrivateDevices",  # would hide /dev/gpiochip*, /dev/i2c-*, the serial port
        "ProcSubset",  # gpiozero reads /proc/cpuinfo and /proc/device-tree to know the board
        "PrivateUsers",  # the gpio/i2c/spi/dialout groups would not map into the namespace
        "DynamicUser",  # the journal needs a stable owner
    ],
)
def test_the_service_avoids_hardening_that_breaks_the_hardware(unit: Unit, key: str) -> None:
    assert key not in unit["Service"]


def test_the_working_directory_is_the_writable_state_directory(unit: Unit) -> None:
    # lgpio makes its notification pipes in the working directory; / is read-only here.
    assert service(unit, "WorkingDirectory") == "/var/lib/gametable"


def test_the_service_starts_at_boot(unit: Unit) -> None:
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def require_systemd_analyze() -> str:
    binary = shutil.which("systemd-analyze")
    if binary is None:
        pytest.skip("systemd-analyze is not installed")
    return binary


def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    analyze = require_systemd_analyze()
    # verify checks that ExecStart= exists: point it at a stand-in, leave the rest untouched.
    program = tmp_path / "gametable"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    text = UNIT.read_text(encoding="utf-8")
    assert f"ExecStart={EXEC_START}" in text
    copy = tmp_path / "gametable.service"
    copy.write_text(
        text.replace("/opt/gametable/.venv/bin/gametable", str(program)), encoding="utf-8"
    )
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(copy)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    complaints = [
        line for line in (result.stdout + result.stderr).splitlines() if str(copy) in line
    ]
    assert result.returncode == 0, result.stderr
    assert complaints == []


def test_systemd_analyze_security_rates_the_unit_well_hardened() -> None:
    analyze = require_systemd_analyze()
    result = subprocess.run(
        [analyze, "security", "--offline=yes", "--threshold=20", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    # Exposure is 0.0 (locked down) to 10.0 (UNSAFE); --threshold counts in tenths.
    assert result.returncode == 0, result.stdout[-2000:]
    assert "Overall exposure level for gametable.service:" in result.stdout


# install.sh


def dry_run(prefix: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    return subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix), *extra],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env=env,
    )


def planned(output: str) -> list[list[str]]:
    """The commands a dry run prints, as argv lists (`+ write PATH` counts as a command)."""
    return [shlex.split(line[2:]) for line in output.splitlines() if line.startswith("+ ")]


def a_pi(prefix: Path, *, groups: tuple[str, ...] = ("gpio", "i2c", "spi", "dialout")) -> Path:
    """A prefix whose /etc/group looks like Raspberry Pi OS's."""
    etc = prefix / "etc"
    etc.mkdir(parents=True)
    ids = {"dialout": 20, "spi": 999, "i2c": 998, "gpio": 997}
    (etc / "group").write_text("".join(f"{g}:x:{ids[g]}:\n" for g in groups), encoding="utf-8")
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    return prefix


def test_install_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=30)


def test_install_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed")
    result = subprocess.run([shellcheck, str(INSTALL)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


def test_install_is_strict_bash() -> None:
    lines = INSTALL.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines


def test_a_dry_run_plans_every_step(tmp_path: Path) -> None:
    prefix = a_pi(tmp_path / "root")
    result = dry_run(prefix)
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    p = str(prefix)

    def plans(*fragments: str) -> bool:
        return any(all(f in command for f in fragments) for command in commands)

    assert plans("useradd", "--system", "--home-dir /var/lib/gametable", "nologin", "gametable")
    assert plans("usermod", "--append", "--groups gpio,i2c,spi,dialout", "gametable")
    assert plans("rsync", f"{ROOT}/", f"{p}/opt/gametable/")
    assert plans("python3 -m venv", f"{p}/opt/gametable/.venv")
    assert plans(f"{p}/opt/gametable/.venv/bin/pip install", f"{p}/opt/gametable[pi]")
    assert plans("install -m 0640 -o root -g gametable", f"{p}/etc/gametable/table.toml")
    assert plans("install -d -m 0750 -o gametable -g gametable", f"{p}/var/lib/gametable")
    assert plans("gametable config check", f"{p}/etc/gametable/table.toml")
    assert plans("install -m 0644", f"{p}/etc/systemd/system/gametable.service")
    assert plans("systemctl", f"--root={p}", "enable", "gametable.service")


def a_debian(
    tmp_path: Path, *, arch: str = "arm64", missing: tuple[str, ...] = ()
) -> dict[str, str]:
    """An environment whose dpkg reports ``arch`` and every package installed but ``missing``
    (stand-ins first on PATH, as the script finds them by name)."""
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    scripts = {
        "dpkg": f'#!/bin/sh\n[ "$1" = --print-architecture ] && echo {arch}\n',
        # dpkg-query --show --showformat=FMT PACKAGE: the status of the last argument
        "dpkg-query": (
            "#!/bin/sh\nfor package; do :; done\n"
            f'case " {" ".join(missing)} " in *" $package "*) exit 1 ;; esac\n'
            "printf installed\n"
        ),
        "apt-get": "#!/bin/sh\nexit 99\n",  # a dry run must never run it
    }
    for name, text in scripts.items():
        (stubs / name).write_text(text, encoding="utf-8")
        (stubs / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    env["PATH"] = f"{stubs}:{env['PATH']}"
    return env


def dry_run_here(
    env: dict[str, str], *extra: str, systemd_running: bool = True
) -> subprocess.CompletedProcess[str]:
    """A dry run without --prefix, with systemd running as init or not: in a mount namespace
    of its own whose /run has /run/systemd/system (sd_booted) or not."""
    boot = "mkdir -p /run/systemd/system" if systemd_running else "true"
    return subprocess.run(
        [
            *("unshare", "--mount", "--map-root-user", "sh", "-c"),
            f'mount -t tmpfs tmpfs /run && {boot} && exec bash "$@"',
            *("sh", str(INSTALL), "--dry-run", *extra),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env=env,
    )


def test_a_dry_run_without_a_prefix_enables_and_starts_the_service(tmp_path: Path) -> None:
    result = dry_run_here(a_debian(tmp_path))
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    assert "systemctl daemon-reload" in commands
    assert "systemctl enable --now gametable.service" in commands
    assert "skipped:" not in result.stdout


def test_without_systemd_running_the_unit_is_enabled_and_the_rest_reported_skipped(
    tmp_path: Path,
) -> None:
    result = dry_run_here(a_debian(tmp_path), systemd_running=False)
    assert result.returncode == 0, result.stderr
    systemctl = [argv for argv in planned(result.stdout) if argv[0] == "systemctl"]
    assert systemctl == [["systemctl", "enable", "gametable.service"]]
    assert (
        "skipped: systemctl daemon-reload; systemctl start gametable.service "
        "(systemd is not running here: no /run/systemd/system)"
    ) in result.stdout.splitlines()


def test_the_debian_packages_the_build_needs_are_apt_installed_first(tmp_path: Path) -> None:
    result = dry_run_here(a_debian(tmp_path, missing=("gcc", "libjpeg-dev")))
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    install = (
        "env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends "
        "gcc libjpeg-dev"
    )
    assert commands[:2] == ["apt-get update", install]  # before anything else is done


def test_every_package_a_source_build_needs_is_checked(tmp_path: Path) -> None:
    wanted = (
        "rsync",
        "python3-venv",
        "python3-dev",
        "gcc",
        "libc6-dev",
        "libjpeg-dev",
        "zlib1g-dev",
    )
    result = dry_run_here(a_debian(tmp_path, missing=wanted))
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    assert commands[1].endswith("--no-install-recommends " + " ".join(wanted))


def test_with_every_package_installed_apt_is_not_run(tmp_path: Path) -> None:
    result = dry_run_here(a_debian(tmp_path))
    assert not any("apt-get" in argv for argv in planned(result.stdout))


def test_with_a_prefix_this_machines_packages_are_named_never_installed(tmp_path: Path) -> None:
    env = a_debian(tmp_path, missing=("python3-dev",))
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(a_pi(tmp_path / "root"))],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "install.sh: warning: missing: python3-dev" in result.stderr
    assert not any("apt-get" in argv for argv in planned(result.stdout))


def test_pip_prefers_wheels_to_newer_source_releases(tmp_path: Path) -> None:
    # cbor2 6 is source only on armhf and needs Rust; its last wheel, 5.9, does not
    result = dry_run_here(a_debian(tmp_path, arch="armhf"))
    assert result.returncode == 0, result.stderr
    pips = [argv for argv in planned(result.stdout) if argv[0].endswith("/.venv/bin/pip")]
    assert pips == [
        [
            "/opt/gametable/.venv/bin/pip",
            "install",
            "--quiet",
            "--prefer-binary",
            "/opt/gametable[pi]",
        ]
    ]


def test_table_is_the_default(tmp_path: Path) -> None:
    env = a_debian(tmp_path)
    assert dry_run_here(env, "--table").stdout == dry_run_here(env).stdout


def test_a_dry_run_changes_nothing(tmp_path: Path) -> None:
    prefix = a_pi(tmp_path / "root")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    assert dry_run(prefix).returncode == 0
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_the_plan_never_writes_outside_the_prefix(tmp_path: Path) -> None:
    prefix = a_pi(tmp_path / "root", groups=("gpio", "i2c"))
    result = dry_run(prefix)
    assert result.returncode == 0, result.stderr
    # Paths the commands name that are not files written: the source read from, and values
    # that describe the target (the user's home and shell as they will be on the Pi).
    allowed = (str(prefix), str(ROOT), "/var/lib/gametable", "/usr/sbin/nologin")
    for argv in planned(result.stdout):
        for arg in argv[1:]:
            if arg.startswith("--exclude="):
                continue  # rsync patterns, relative to the copy
            path = arg.split("=", 1)[-1]
            if path.startswith("/"):
                assert path.startswith(allowed), f"{path} in: {shlex.join(argv)}"
        if argv[0] == "write":
            assert argv[1].startswith(str(prefix))


def test_an_existing_config_is_never_overwritten(tmp_path: Path) -> None:
    prefix = a_pi(tmp_path / "root")
    (prefix / "etc" / "gametable").mkdir()
    (prefix / "etc" / "gametable" / "table.toml").write_text("# the operator's\n", encoding="utf-8")
    result = dry_run(prefix)
    assert result.returncode == 0, result.stderr
    assert "keeping the existing /etc/gametable/table.toml" in result.stdout
    assert not any("config/table.toml" in " ".join(argv) for argv in planned(result.stdout))


def test_an_existing_user_is_reused(tmp_path: Path) -> None:
    prefix = a_pi(tmp_path / "root")
    with (prefix / "etc" / "passwd").open("a", encoding="utf-8") as passwd:
        passwd.write("gametable:x:996:996::/var/lib/gametable:/usr/sbin/nologin\n")
    result = dry_run(prefix)
    assert not any(argv[0] == "useradd" for argv in planned(result.stdout))
    assert "user gametable exists" in result.stdout


def test_missing_groups_are_skipped_with_a_warning_and_a_drop_in(tmp_path: Path) -> None:
    prefix = a_pi(tmp_path / "root", groups=("gpio", "i2c", "dialout"))
    result = dry_run(prefix)
    assert result.returncode == 0, result.stderr
    assert "warning: no group spi" in result.stderr
    assert any(
        argv[:4] == ["usermod", "--append", "--groups", "gpio,i2c,dialout"]
        for argv in planned(result.stdout)
    )
    dropin = f"{prefix}/etc/systemd/system/gametable.service.d/10-groups.conf"
    assert f"+ write {dropin} (mode 0644):" in result.stdout
    assert "|   SupplementaryGroups=gpio i2c dialout" in result.stdout


def test_with_every_group_present_no_drop_in_is_written(tmp_path: Path) -> None:
    result = dry_run(a_pi(tmp_path / "root"))
    assert "10-groups.conf" not in result.stdout
    assert "warning: no group" not in result.stderr


def test_an_unknown_argument_is_refused(tmp_path: Path) -> None:
    result = dry_run(tmp_path, "--force")
    assert result.returncode == 1
    assert result.stderr.strip() == "install.sh: unknown argument: --force (try --help)"


def test_a_real_run_needs_root(tmp_path: Path) -> None:
    command = ["bash", str(INSTALL), "--prefix", str(tmp_path)]
    if os.geteuid() == 0:  # become nobody: the check must refuse before anything is touched
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv to drop privileges")
        command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1
    assert "run as root" in result.stderr


# the hub's unit (docs/hub.md)

HUB_UNIT = ROOT / "systemd" / "gametable-hub.service"
HUB_EXEC_START = (
    "/opt/gametable/.venv/bin/gametable hub run --db /var/lib/gametable-hub/tournament.db "
    "--password-file /etc/gametable/hub-password"
)
# What only a table needs: its hardware, and the board's description in /proc.
HARDWARE = {
    "SupplementaryGroups",
    "DeviceAllow",
    "WorkingDirectory",
    "StateDirectory",
    "ExecStart",
}


@pytest.fixture(scope="module")
def hub_unit() -> Unit:
    return parse_unit(HUB_UNIT.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("Type", "notify"),
        ("ExecStart", HUB_EXEC_START),
        ("WatchdogSec", "10s"),
        ("Restart", "on-failure"),
        ("RestartPreventExitStatus", "2"),
        ("StateDirectory", "gametable-hub"),
        ("WorkingDirectory", "/var/lib/gametable-hub"),
        ("PrivateDevices", "yes"),
        ("ProcSubset", "pid"),
        ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"),
    ],
)
def test_the_hub_service_sets(hub_unit: Unit, key: str, value: str) -> None:
    assert service(hub_unit, key) == value


# the table's deadlines (the 5-count's ticks, R1083): the hub keeps none to the millisecond
TABLE_SCHEDULING = {"CPUSchedulingPolicy", "CPUSchedulingPriority"}


def test_the_hub_is_hardened_at_least_as_the_table(unit: Unit, hub_unit: Unit) -> None:
    for key, values in unit["Service"].items():
        if key not in HARDWARE | TABLE_SCHEDULING:
            assert hub_unit["Service"].get(key) == values, key


def test_the_hub_starts_after_the_broker_and_once_there_is_a_tournament(hub_unit: Unit) -> None:
    assert hub_unit["Unit"]["After"] == ["mosquitto.service"]
    assert hub_unit["Unit"]["Wants"] == ["mosquitto.service"]
    assert hub_unit["Unit"]["ConditionPathExists"] == ["/var/lib/gametable-hub/tournament.db"]


def test_systemd_analyze_verify_accepts_the_hub_unit(tmp_path: Path) -> None:
    analyze = require_systemd_analyze()
    program = tmp_path / "gametable"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    copy = tmp_path / "gametable-hub.service"
    copy.write_text(
        HUB_UNIT.read_text(encoding="utf-8").replace(
            "/opt/gametable/.venv/bin/gametable", str(program)
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(copy)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if str(copy) in line] == []


def test_systemd_analyze_security_rates_the_hub_unit_well_hardened() -> None:
    analyze = require_systemd_analyze()
    result = subprocess.run(
        [analyze, "security", "--offline=yes", "--threshold=20", "--no-pager", str(HUB_UNIT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout[-2000:]


# the broker's config (docs/hub.md; tests/test_hub_broker.py tries it on a real mosquitto)

BROKER_CONF = ROOT / "systemd" / "mosquitto" / "gametable.conf"
BROKER_ACL = ROOT / "systemd" / "mosquitto" / "gametable.acl"


def _directives(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize(
    "directive",
    [
        "allow_anonymous false",
        "password_file /etc/mosquitto/gametable.passwd",
        "acl_file /etc/mosquitto/gametable.acl",
        "persistence true",
        "max_queued_messages 1000000",
    ],
)
def test_the_broker_config_sets(directive: str) -> None:
    assert directive in _directives(BROKER_CONF)


def test_the_broker_config_leaves_debians_own_settings_alone() -> None:
    # Debian's mosquitto.conf names these; a second value is an error that stops the broker.
    named = {line.split()[0] for line in _directives(BROKER_CONF)}
    assert not named & {"persistence_location", "log_dest", "include_dir", "pid_file"}


def test_every_listener_binds_client_ids_to_accounts() -> None:
    """A listener's own option (R720): written before the first listener it would open another
    on 1883 instead; so it follows each ``listener`` line, before the next one."""
    directives = _directives(BROKER_CONF)
    starts = [i for i, line in enumerate(directives) if line.startswith("listener ")]
    assert starts
    for start, end in zip(starts, [*starts[1:], len(directives)], strict=True):
        assert "use_username_as_clientid true" in directives[start:end], directives[start]
    assert "use_username_as_clientid true" not in directives[: starts[0]]


def test_the_acl_lets_each_table_write_only_its_own_topics() -> None:
    acl = _directives(BROKER_ACL)
    assert acl[:2] == ["pattern readwrite tables/%u/#", "pattern read tournament/#"]
    assert acl[2:] == ["user hub", "topic read #", "topic write tournament/#"]


# install.sh --hub


def a_hub_machine(prefix: Path) -> Path:
    """A prefix with Debian's mosquitto installed."""
    etc = prefix / "etc"
    etc.mkdir(parents=True)
    (etc / "group").write_text("mosquitto:x:109:\n", encoding="utf-8")
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    sbin = prefix / "usr" / "sbin"
    sbin.mkdir(parents=True)
    (sbin / "mosquitto").write_text("#!/bin/sh\n", encoding="utf-8")
    (sbin / "mosquitto").chmod(0o755)
    return prefix


def test_a_hub_dry_run_plans_the_broker_the_hubs_account_and_its_unit(tmp_path: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    result = dry_run(prefix, "--hub")
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    p = str(prefix)

    def plans(*fragments: str) -> bool:
        return any(all(f in command for f in fragments) for command in commands)

    assert plans("install -m 0644", "mosquitto/gametable.conf", f"{p}/etc/mosquitto/conf.d/")
    assert plans("install -m 0644", "mosquitto/gametable.acl", f"{p}/etc/mosquitto/gametable.acl")
    assert plans("install -m 0640 -o root -g 109 /dev/null", f"{p}/etc/mosquitto/gametable.passwd")
    assert plans("gametable hub users", "hub --generate", f"{p}/etc/gametable/hub-password")
    assert plans("install -d -m 0750 -o gametable -g gametable", f"{p}/var/lib/gametable-hub")
    assert plans("install -m 0644", f"{p}/etc/systemd/system/gametable-hub.service")
    assert plans("systemctl", f"--root={p}", "enable", "gametable-hub.service")


def test_a_hub_is_no_table(tmp_path: Path) -> None:
    result = dry_run(a_hub_machine(tmp_path / "root"), "--hub")
    planned_text = result.stdout
    assert "table.toml" not in planned_text
    assert "gametable.service" not in planned_text.replace("gametable-hub.service", "")
    assert "usermod" not in planned_text  # no hardware groups


def test_a_hub_keeps_the_operators_accounts(tmp_path: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    (prefix / "etc" / "mosquitto").mkdir()
    (prefix / "etc" / "mosquitto" / "gametable.passwd").write_text("hub:$7$...\n")
    (prefix / "etc" / "gametable").mkdir()
    (prefix / "etc" / "gametable" / "hub-password").write_text("secret\n")
    result = dry_run(prefix, "--hub")
    assert "keeping the existing /etc/mosquitto/gametable.passwd" in result.stdout
    assert "keeping the existing /etc/gametable/hub-password" in result.stdout
    assert not any(argv[1:3] == ["hub", "users"] for argv in planned(result.stdout))


def test_a_hub_needs_mosquitto(tmp_path: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    (prefix / "usr" / "sbin" / "mosquitto").unlink()
    result = dry_run(prefix, "--hub")
    assert "missing:" in result.stderr and "mosquitto" in result.stderr


def test_the_hub_plan_never_writes_outside_the_prefix(tmp_path: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    result = dry_run(prefix, "--hub")
    assert result.returncode == 0, result.stderr
    allowed = (str(prefix), str(ROOT), "/var/lib/gametable", "/usr/sbin/nologin", "/dev/null")
    for argv in planned(result.stdout):
        for arg in argv[1:]:
            if arg.startswith("--exclude="):
                continue
            path = arg.split("=", 1)[-1]
            if path.startswith("/"):
                assert path.startswith(allowed), f"{path} in: {shlex.join(argv)}"


def test_the_hub_installs_its_extra_and_apt_installs_mosquitto(tmp_path: Path) -> None:
    result = dry_run_here(a_debian(tmp_path, missing=("mosquitto",)), "--hub")
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    assert commands[1].endswith("--no-install-recommends mosquitto")
    assert "/opt/gametable/.venv/bin/pip install --quiet --prefer-binary /opt/gametable[hub]" in (
        commands
    )


def test_without_systemd_running_the_hub_is_enabled_and_the_broker_reload_skipped(
    tmp_path: Path,
) -> None:
    result = dry_run_here(a_debian(tmp_path), "--hub", systemd_running=False)
    assert result.returncode == 0, result.stderr
    systemctl = [argv for argv in planned(result.stdout) if argv[0] == "systemctl"]
    assert systemctl == [["systemctl", "enable", "gametable-hub.service"]]
    assert "skipped: systemctl daemon-reload; systemctl reload-or-restart mosquitto.service" in (
        result.stdout
    )


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_the_hub_is_refused_on_32_bit_arm_before_anything_is_done(
    tmp_path: Path, arch: str
) -> None:
    result = dry_run_here(a_debian(tmp_path, arch=arch, missing=("mosquitto",)), "--hub")
    assert result.returncode == 1
    assert planned(result.stdout) == []
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(
        f"install.sh: the hub's pairings need rustworkx, which PyPI has no build of for 32-bit "
        f"ARM ({arch})"
    )
    assert "install the hub on a 64-bit system" in result.stderr
