"""The state atlas: the card facts printed in the rulebooks, validation and look-up."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from rules.atlas import Atlas, AtlasDataError, Category, atlas_from_records, default_atlas
from rules.errors import InvalidInput, UnknownState

ATLAS = default_atlas()
DATA = Path(__file__).resolve().parents[1] / "rules/data/states.json"
SHARED = Path(__file__).resolve().parents[2] / "shared/data/us-states/states.json"


def test_atlas_has_fifty_states() -> None:
    assert len(ATLAS) == 50


def _millions(people: int) -> float:
    """The cards print censuses rounded to a tenth of a million."""
    return round(people / 1e6, 1)


def test_utah_card_as_printed() -> None:
    utah = ATLAS.lookup("UT")
    assert (utah.statehood_rank, utah.population_rank, utah.size_rank) == (45, 33, 13)
    assert utah.statehood_date == date(1896, 1, 4)
    assert utah.capital == "Salt Lake City"
    assert utah.patos == "Grover Cleveland"
    assert utah.nickname == "Beehive State"
    assert utah.flower == "Sego Lily"
    assert utah.bird == "Sea Gull"
    assert (_millions(utah.census_2000), _millions(utah.census_2010)) == (2.2, 2.8)
    assert utah.electoral_votes == 6
    assert utah.top_cities == ("Salt Lake City", "West Valley City", "Provo", "West Jordan", "Orem")
    assert utah.borders == {"ID", "WY", "CO", "NM", "AZ", "NV"}


def test_oklahoma_card_as_printed() -> None:
    oklahoma = ATLAS.lookup("Oklahoma")
    assert (oklahoma.statehood_rank, oklahoma.population_rank, oklahoma.size_rank) == (46, 28, 20)
    assert oklahoma.statehood_date == date(1907, 11, 16)
    assert oklahoma.patos == "Theodore Roosevelt"
    assert oklahoma.nickname == "Sooner State"
    assert oklahoma.flower == "Oklahoma Rose"
    assert oklahoma.bird.startswith("Scissor-tailed")  # the rulebook misprints "Pycatcher"
    assert (_millions(oklahoma.census_2000), _millions(oklahoma.census_2010)) == (3.5, 3.8)
    assert oklahoma.electoral_votes == 7
    assert oklahoma.top_cities == ("Oklahoma City", "Tulsa", "Norman", "Broken Arrow", "Lawton")
    assert oklahoma.borders == {"CO", "KS", "MO", "AR", "TX", "NM"}


def test_texas_card_as_printed() -> None:
    texas = ATLAS.lookup("texas")
    assert (texas.statehood_rank, texas.population_rank, texas.size_rank) == (28, 2, 2)
    assert texas.statehood_date == date(1845, 12, 29)
    assert texas.capital == "Austin"
    assert texas.electoral_votes == 38
    assert texas.patos == "James Polk"
    assert texas.nickname == "The Lone Star State"  # as printed: the card wins
    assert (_millions(texas.census_2000), _millions(texas.census_2010)) == (20.9, 25.1)
    assert texas.top_cities == ("Houston", "San Antonio", "Dallas", "Austin", "Fort Worth")
    assert texas.borders == {"OK", "AR", "LA", "NM"}


def test_bur_example_florida_population_3_virginia_size_35() -> None:
    assert ATLAS.lookup("FL").rank(Category.POPULATION) == 3
    assert ATLAS.lookup("VA").rank(Category.SIZE) == 35


@pytest.mark.parametrize(("state", "rank"), [("MN", 32), ("WI", 30), ("CA", 31), ("TN", 16)])
def test_statehood_ranks_from_the_ptr_examples(state: str, rank: int) -> None:
    assert ATLAS.lookup(state).statehood_rank == rank


@pytest.mark.parametrize(("state", "rank"), [("NY", 4), ("GA", 8)])
def test_population_ranks_from_the_ptr_examples(state: str, rank: int) -> None:
    assert ATLAS.lookup(state).population_rank == rank


def test_four_corners_contacts_count_as_borders() -> None:
    assert ATLAS.borders("UT", "NM")
    assert ATLAS.borders("AZ", "CO")


def test_water_only_contacts_are_not_borders() -> None:
    assert not ATLAS.borders("MI", "MN")
    assert not ATLAS.borders("IL", "MI")
    assert not ATLAS.borders("NY", "RI")


def test_borders_are_symmetric() -> None:
    for state in ATLAS:
        for neighbour in state.borders:
            assert state.code in ATLAS.lookup(neighbour).borders


@pytest.mark.parametrize("category", list(Category))
def test_each_rank_column_is_a_permutation(category: Category) -> None:
    assert sorted(state.rank(category) for state in ATLAS) == list(range(1, 51))


def test_lookup_is_case_insensitive_by_code_and_name() -> None:
    assert ATLAS.lookup("ny") is ATLAS.lookup("New York") is ATLAS.lookup("  new   york ")


def test_unknown_state_suggests_the_closest_names() -> None:
    with pytest.raises(UnknownState) as raised:
        ATLAS.lookup("Nebraskka")
    assert "Nebraska" in raised.value.suggestions
    assert "did you mean Nebraska" in str(raised.value)


def test_unknown_state_is_an_invalid_input_rule_error() -> None:
    with pytest.raises(InvalidInput):
        ATLAS.lookup("XX")


def _records() -> list[dict[str, object]]:
    loaded: list[dict[str, object]] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def test_validation_rejects_asymmetric_borders() -> None:
    records = _records()
    utah = next(r for r in records if r["code"] == "UT")
    utah["borders"] = ["ID"]
    with pytest.raises(AtlasDataError, match="not symmetric"):
        atlas_from_records(records)


def test_validation_rejects_a_rank_column_that_is_not_a_permutation() -> None:
    records = _records()
    records[0]["size_rank"] = records[1]["size_rank"]
    with pytest.raises(AtlasDataError, match="size ranks"):
        atlas_from_records(records)


def test_validation_rejects_a_missing_state() -> None:
    states = list(ATLAS)[1:]
    with pytest.raises(AtlasDataError, match="49 states"):
        Atlas(states)


def test_rank_of_each_category() -> None:
    texas = ATLAS.lookup("TX")
    assert texas.rank(Category.STATEHOOD) == texas.statehood_rank
    assert replace(texas, size_rank=7).rank(Category.SIZE) == 7


def test_unknown_category_names_the_choices() -> None:
    with pytest.raises(InvalidInput, match="expected size, statehood or population"):
        Category.parse("area")


@pytest.mark.skipif(not SHARED.exists(), reason=f"needs {SHARED} beside the checkout (CI has it)")
def test_package_data_is_the_conversion_of_the_verified_facts() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "convert_states", Path(__file__).resolve().parents[1] / "scripts/convert_states.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    converted = module.convert(json.loads(SHARED.read_text(encoding="utf-8")))
    assert converted == _records()


def test_a_word_or_prefix_of_a_name_suggests_the_state() -> None:
    from rules.atlas import default_atlas

    assert default_atlas().suggestions("rhode") == ("Rhode Island",)
    assert set(default_atlas().suggestions("carolina")) == {"North Carolina", "South Carolina"}
    assert default_atlas().suggestions("kentuky") == ("Kentucky",)


def test_patos_names_are_written_one_way_as_the_cards_print_them() -> None:
    names = {state.patos for state in ATLAS if state.patos}
    assert not any(". " in name for name in names)  # no middle initials: "James Polk"
    assert {"James Polk", "Grover Cleveland", "Dwight Eisenhower"} <= names
