"""The recovery campaign (tests/recovery_campaign.py): every instruction the table prints for a
way back, followed literally with a kill -9 at each step of it; nothing lost (issue 25, R900).
``make test`` runs one trial of each instruction, ``make soak`` 40 of each."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recovery_campaign import TRIALS, campaign
from tests.soak import sized

TRIALS_RUN = sized(len(TRIALS), 40 * len(TRIALS))


def test_every_recovery_instruction_followed_through_kills_loses_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = campaign(TRIALS_RUN, tmp_path, seed=25)
    with capsys.disabled():
        print(f"\nrecovery campaign: {report.line()}")
    assert report.failures == [], "\n".join(report.failures)
    assert report.instructions == TRIALS_RUN and report.kills >= TRIALS_RUN
    assert report.decisions_checked > 0 and report.lost == 0
