"""Point tables are versioned: a table that has scored a deal never changes under its results."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import PointTable
from games.services import point_table_for_preset, point_table_revise
from scoring.engine.tables import preset_data
from scoring.services import deal_record
from tests.factories import PouleFactory, TournamentFactory

pytestmark = pytest.mark.django_db

EMBALLAGE_MADE_BY_ONE = {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}


def with_emballage_overtrick_worth(points):
    """The rcwhist table, but an emballage 8 made with 9 tricks is worth ``points`` (and the
    defenders lose as much: the table stays zero-sum)."""
    data = copy.deepcopy(preset_data("rcwhist"))
    row = data["rows"][0]
    assert (row["contract"], row["bid"]) == ("emballage", 8)
    row["declarer"][9], row["defender"][9] = points, -points
    return data


@pytest.fixture
def used_table(club, season, point_table):
    tournament = TournamentFactory(club=club, season=season, point_table=point_table)
    deal_record(PouleFactory(tournament=tournament), EMBALLAGE_MADE_BY_ONE)
    return point_table


def test_the_rcwhist_preset_is_stored_once_at_version_1(point_table):
    assert (point_table.name, point_table.version, point_table.game) == (
        "rcwhist",
        1,
        "belgian_whist",
    )
    assert point_table.data == preset_data("rcwhist")
    assert point_table_for_preset("rcwhist") == point_table
    assert PointTable.objects.count() == 1


def test_revising_a_used_table_creates_version_2_and_old_nights_keep_version_1(used_table):
    old_tournament = used_table.tournaments.get()

    revised = point_table_revise(used_table, with_emballage_overtrick_worth(6))

    assert (revised.name, revised.version) == ("rcwhist", 2)
    assert revised.pk != used_table.pk
    used_table.refresh_from_db()
    assert used_table.version == 1
    assert used_table.data == preset_data("rcwhist")
    old_tournament.refresh_from_db()
    assert old_tournament.point_table == used_table
    assert old_tournament.poules.get().deals.get().points == [5, -5, 5, -5]


def test_a_night_created_after_a_revision_is_scored_with_the_new_version(used_table, club, season):
    point_table_revise(used_table, with_emballage_overtrick_worth(6))

    new_tournament = TournamentFactory(club=club, season=season)
    deal = deal_record(PouleFactory(tournament=new_tournament), EMBALLAGE_MADE_BY_ONE)

    assert new_tournament.point_table.version == 2
    assert deal.points == [6, -6, 6, -6]


def test_revising_a_used_table_twice_gives_version_3(used_table):
    second = point_table_revise(used_table, with_emballage_overtrick_worth(6))
    # Version 2 has scored nothing yet, so it is still edited in place.
    again = point_table_revise(second, with_emballage_overtrick_worth(7))
    third = point_table_revise(used_table, with_emballage_overtrick_worth(8))

    assert again.pk == second.pk
    assert [t.version for t in PointTable.objects.filter(name="rcwhist")] == [3, 2, 1]
    assert third.version == 3


def test_an_unused_table_is_edited_in_place(point_table):
    revised = point_table_revise(
        point_table, with_emballage_overtrick_worth(6), label="RCWhist, saison 2025"
    )

    assert revised.pk == point_table.pk
    assert revised.version == 1
    point_table.refresh_from_db()
    assert point_table.data["rows"][0]["declarer"][9] == 6
    assert point_table.label == "RCWhist, saison 2025"
    assert PointTable.objects.count() == 1


def test_an_invalid_revision_is_refused_and_changes_nothing(used_table):
    data = with_emballage_overtrick_worth(6)
    data["rows"][0]["defender"][9] = 0

    with pytest.raises(ValidationError) as refused:
        point_table_revise(used_table, data)

    assert "rows[0].defender[9]" in refused.value.message_dict["data"][0]
    assert PointTable.objects.count() == 1


def change_form(table, data, label=None):
    return {
        "game": table.game,
        "name": table.name,
        "version": table.version,
        "label": table.label if label is None else label,
        "data": json.dumps(data),
        "_save": "Save",
    }


def test_saving_a_used_table_in_the_admin_creates_a_new_version(client, superuser, used_table):
    client.force_login(superuser)
    url = reverse("admin:games_pointtable_change", args=[used_table.pk])

    response = client.post(url, change_form(used_table, with_emballage_overtrick_worth(6)))

    assert response.status_code == 302
    latest = PointTable.objects.get(name="rcwhist", version=2)
    assert latest.data["rows"][0]["declarer"][9] == 6
    used_table.refresh_from_db()
    assert used_table.version == 1
    assert used_table.data == preset_data("rcwhist")
    assert used_table.tournaments.count() == 1


def test_saving_an_unused_table_in_the_admin_edits_it(client, superuser, point_table):
    client.force_login(superuser)
    url = reverse("admin:games_pointtable_change", args=[point_table.pk])

    response = client.post(
        url, change_form(point_table, with_emballage_overtrick_worth(6), label="Maison")
    )

    assert response.status_code == 302
    point_table.refresh_from_db()
    assert (point_table.version, point_table.label) == (1, "Maison")
    assert point_table.data["rows"][0]["declarer"][9] == 6
    assert PointTable.objects.count() == 1


def test_an_invalid_table_in_the_admin_shows_the_engines_located_message(
    client, superuser, used_table
):
    client.force_login(superuser)
    data = with_emballage_overtrick_worth(6)
    data["rows"][2]["declarer"] = data["rows"][2]["declarer"][:13]
    url = reverse("admin:games_pointtable_change", args=[used_table.pk])

    response = client.post(url, change_form(used_table, data))

    assert response.status_code == 200
    assert "rows[2].declarer" in response.context["adminform"].form.errors["data"][0]
    assert PointTable.objects.count() == 1


@pytest.mark.parametrize(
    ("mutate", "located"),
    [
        (lambda d: d["rows"][2].update(declarer=d["rows"][2]["declarer"][:13]), "rows[2].declarer"),
        (lambda d: d["rows"][0]["declarer"].__setitem__(4, "douze"), "rows[0].declarer[4]"),
        (lambda d: d["rows"][1].update(contract="grand_slam"), "rows[1].contract"),
        (lambda d: d["rows"][0]["defender"].__setitem__(9, 0), "rows[0].defender[9]"),
        (lambda d: d.update(format="point-table/0"), "format"),
        (lambda d: d.pop("rows"), "rows"),
    ],
    ids=["13-values", "not-an-integer", "unknown-contract", "not-zero-sum", "format", "no-rows"],
)
def test_an_invalid_point_table_is_refused_with_the_engines_located_message(mutate, located):
    data = copy.deepcopy(preset_data("rcwhist"))
    mutate(data)
    table = PointTable(game="belgian_whist", name="maison", label="Maison", data=data)

    with pytest.raises(ValidationError) as refused:
        table.full_clean()

    assert list(refused.value.message_dict) == ["data"]
    assert refused.value.message_dict["data"][0].startswith(f"{located}: ")


def test_a_point_table_for_another_game_is_refused():
    table = PointTable(game="whist", name="maison", data=preset_data("rcwhist"))

    with pytest.raises(ValidationError) as refused:
        table.full_clean()

    assert "belgian_whist" in refused.value.message_dict["data"][0]
