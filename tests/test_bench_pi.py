"""The Pi projection of ``make bench`` (bench/pi.py, issue 28, R1080): its arithmetic and its
rows. The CPU times themselves are the bench's to report, never asserted here."""

from __future__ import annotations

import pytest

from bench.pi import (
    HERE_PURE_PYTHON_SECONDS,
    PI4_PURE_PYTHON_SECONDS,
    PI_MODELS,
    HotPath,
    PiModel,
    count_ticks,
    light_paths,
    model_basis,
    projection_figures,
    scaled,
    slowdown,
    slowest,
)


def a_pi(factor: int) -> PiModel:
    return PiModel(f"x{factor} Pi", "test core", float(factor), ())


def test_a_workload_taking_four_times_as_long_on_the_pi_is_a_factor_of_four() -> None:
    assert slowdown(4.0, 1.0) == 4.0


def test_a_pi_faster_than_this_machine_takes_less_time() -> None:
    assert slowdown(0.5, 1.0) == 0.5


@pytest.mark.parametrize("times", [(0.0, 1.0), (1.0, 0.0), (-5.0, 1.0)])
def test_a_time_that_is_not_positive_is_refused(times: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="times must be positive"):
        slowdown(*times)


def test_a_board_scoring_a_quarter_as_much_takes_four_times_the_factor() -> None:
    assert scaled(2.0, 1000, 250) == 8.0


@pytest.mark.parametrize("scores", [(0, 250), (1000, 0), (-5, 250)])
def test_a_single_core_score_that_is_not_positive_is_refused(scores: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="single-core scores must be positive"):
        scaled(1.0, *scores)


def test_the_slowest_supported_pi_is_the_zero_2_w() -> None:
    assert slowest().name == "Pi Zero 2 W"
    assert [model.name for model in PI_MODELS] == ["Pi Zero 2 W", "Pi 3 B", "Pi 4 B", "Pi 5"]


def test_the_pi_4s_factor_is_its_published_pure_python_time_over_the_time_here() -> None:
    pi4 = next(model for model in PI_MODELS if model.name == "Pi 4 B")
    assert pi4.factor == PI4_PURE_PYTHON_SECONDS / HERE_PURE_PYTHON_SECONDS


def test_every_factor_names_its_published_sources_or_is_marked_an_estimate() -> None:
    for model in PI_MODELS:
        assert bool(model.sources) != (model.estimate is not None), model.name
        assert all(source.url.startswith("https://") for source in model.sources)


def test_an_estimated_factor_says_so_where_it_is_printed() -> None:
    zero = slowest()
    assert zero.estimate is not None
    assert "ESTIMATE: no published single-core figure found" in model_basis(zero)


def test_a_sourced_factor_prints_each_figure_with_its_address() -> None:
    pi5 = next(model for model in PI_MODELS if model.name == "Pi 5")
    assert model_basis(pi5) == (
        "Pi 5 Cortex-A76 2.4 GHz x1.7 from Pi 5 Geekbench 6 single-core 904 "
        "(https://github.com/geerlingguy/sbc-reviews/issues/21), Pi 4 B Geekbench 6 "
        "single-core 289 (https://github.com/geerlingguy/sbc-reviews/issues/4)"
    )


def test_a_hot_path_has_its_p99_here_then_one_row_per_pi() -> None:
    path = HotPath("the path", [0.001] * 100, 0.025)
    rows = projection_figures(path, [a_pi(10), a_pi(2)])
    assert [(row.name, row.value, row.target) for row in rows] == [
        ("the path, CPU p99 here", "1.000 ms", "-"),
        ("  projected on x10 Pi (x10.0)", "10.000 ms", "<= 25 ms"),
        ("  projected on x2 Pi (x2.0)", "2.000 ms", "<= 25 ms"),
    ]


def test_the_projection_is_the_p99_times_the_factor_not_the_mean() -> None:
    path = HotPath("the path", [0.001] * 99 + [0.004], 0.025)
    assert projection_figures(path, [a_pi(10)])[1].value == "40.000 ms"


def test_a_projection_over_its_target_is_printed_as_not_met() -> None:
    path = HotPath("the path", [0.003], 0.025)
    slow, fast = projection_figures(path, [a_pi(10), a_pi(5)])[1:]
    assert (slow.value, slow.met) == ("30.000 ms", False)
    assert (fast.value, fast.met) == ("15.000 ms", True)


def test_the_row_measured_here_is_informational() -> None:
    assert projection_figures(HotPath("the path", [0.1], 0.025))[0].met is None


def test_a_path_without_a_target_projects_informational_rows() -> None:
    rows = projection_figures(HotPath("the path", [0.001], None))
    assert {(row.target, row.met) for row in rows} == {("-", None)}


def test_the_light_paths_time_every_race_after_the_warm_up() -> None:
    light, committed, page = light_paths(races=3, warmup=1)
    assert [len(path.samples) for path in (light, committed, page)] == [3, 3, 3]
    assert [path.target for path in (light, committed, page)] == [0.025, 0.025, 0.2]


def test_a_5_count_is_timed_at_each_of_its_ticks() -> None:
    assert len(count_ticks(counts=1).samples) >= 5
