"""Point tables are versioned: a table that has scored a deal never changes under its results."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import point_tables
from games.models import PointTable
from games.nightfile import tournament_import
from games.nightfile_export import tournament_export
from games.services import point_table_for_data, point_table_for_preset, point_table_revise
from scoring.engine.tables import preset, preset_data
from scoring.services import deal_record, last_night_rescored, tournament_close
from tests.factories import ClubFactory, PouleFactory, TournamentFactory

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


# A club's point tables as the club reads them (games.point_tables): the grid, the formula
# row, the engine's properties checked before saving, the club's own versions (other clubs and
# old nights keep theirs), what changes, and the last night scored again.


# An emballage 8 made with 9 tricks: rcwhist gives each declarer 5 (row 0, column 9).
EMBALLAGE_9 = {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}


def one_cell(data, declarer, defender, row=0, tricks=9):
    return point_tables.grid_with(data, {(row, tricks): (declarer, defender)})


@pytest.fixture
def played(club, season, point_table, django_capture_on_commit_callbacks):
    """A closed night of the club scored with the shared rcwhist table."""
    night = TournamentFactory(club=club, season=season, point_table=point_table)
    poule = PouleFactory(tournament=night)
    deal_record(poule, EMBALLAGE_9)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(night, unfinished_ok=True, send_results=False)
    return night


def test_the_grid_reads_a_row_per_contract_and_bid_and_a_column_per_trick_count():
    rows = point_tables.grid(preset_data("rcwhist"))
    first = rows[0]
    assert (first.contract, first.bid, first.label) == ("emballage", 8, "Emballage 8")
    assert len(first.cells) == 14
    nine = first.cells[9]
    assert (nine.declarer, nine.defender, nine.made) == (5, -5, True)
    assert not first.cells[7].made
    petite = next(r for r in rows if r.contract == "petite_misere")
    assert not petite.cells[13].playable  # played on 12 tricks


def test_a_formula_row_gives_the_clubs_grid():
    data = preset_data("rcwhist")
    row = data["rows"][0]  # emballage 8: +4, +1 per overtrick; −6, −2 per undertrick
    declarer, defender = point_tables.formula_points(row, 4, 1, 6, 2)
    assert declarer[8:13] == [4, 5, 6, 7, 8]
    assert declarer[7] == -6 and declarer[6] == -8 and declarer[0] == -20
    assert defender == [-d for d in declarer]
    solo = next(r for r in data["rows"] if r["contract"] == "solo" and r["bid"] == 6)
    declarer, defender = point_tables.formula_points(solo, 2, 1, 3, 1)
    assert declarer[6] == 6 and defender[6] == -2  # a solo is paid by three defenders


@pytest.mark.parametrize("name", ["rcwhist", "whisthub", "iwwa"])
def test_the_presets_pass_the_checks_the_engines_property_tests_make(name):
    assert point_tables.table_problems(preset_data(name)) == []
    # The same properties as tests/engine/test_properties.py, on the engine's own table.
    table = preset(name)
    for row in table.rows.values():
        if row.contract not in point_tables.EXACT_CONTRACTS:
            points = list(row.declarer[: row.deal_tricks + 1])
            assert points == sorted(points)


def test_a_cell_that_breaks_zero_sum_is_refused_in_words():
    problems = point_tables.table_problems(one_cell(preset_data("rcwhist"), 6, -5))
    assert any("pas 0" in p for p in problems)


def test_more_tricks_worth_less_is_refused():
    # Emballage 8 made with 9 tricks worth 3, with 8 tricks worth 4.
    problems = point_tables.grid_problems(one_cell(preset_data("rcwhist"), 3, -3))
    assert problems == ["Emballage 8 : 9 plis rapportent moins que 8 plis (3 < 4)."]
    # And with 10 tricks worth less than 9: the next column is named.
    problems = point_tables.grid_problems(one_cell(preset_data("rcwhist"), 7, -7))
    assert problems == ["Emballage 8 : 10 plis rapportent moins que 9 plis (6 < 7)."]


def test_a_made_contract_that_costs_points_is_refused():
    problems = point_tables.grid_problems(one_cell(preset_data("rcwhist"), -1, 1, tricks=8))
    assert any("réussi" in p for p in problems)


def test_changes_list_the_cells_that_differ():
    old = preset_data("rcwhist")
    changes = point_tables.table_changes(old, one_cell(old, 6, -6))
    assert [(c.row, c.tricks, c.before, c.after) for c in changes] == [
        ("Emballage 8", 9, "5 / -5", "6 / -6")
    ]


def test_saving_a_played_shared_table_makes_the_clubs_own_next_version(club, point_table, played):
    other = ClubFactory(name="Whist Club Liège")
    saved = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))

    assert (saved.club, saved.name, saved.version) == (club, "rcwhist", 2)
    played.refresh_from_db()
    assert played.point_table == point_table  # the old night keeps its version
    point_table.refresh_from_db()
    assert point_table.data == preset_data("rcwhist")
    # The club's next nights use its version; another club keeps the shared one.
    assert point_table_for_preset("rcwhist", club) == saved
    assert point_table_for_preset("rcwhist", other) == point_table
    assert point_table_for_preset("rcwhist") == point_table


def test_the_next_night_is_scored_with_the_new_value(club, season, point_table, played):
    saved = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))
    night = TournamentFactory(
        club=club, season=season, point_table=point_table_for_preset("rcwhist", club)
    )
    deal = deal_record(PouleFactory(tournament=night), EMBALLAGE_9)
    assert night.point_table == saved
    assert deal.points[0] == 6
    old_deal = played.poules.get().deals.get()
    assert old_deal.points[0] == 5


def test_an_unused_club_version_changes_in_place_and_a_used_one_gets_the_next(
    club, season, point_table
):
    mine = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))
    again = point_tables.point_table_club_save(club, mine, one_cell(mine.data, 14, -14, tricks=13))
    assert again.pk == mine.pk and again.version == 2
    night = TournamentFactory(club=club, season=season, point_table=again)
    deal_record(PouleFactory(tournament=night), EMBALLAGE_9)
    third = point_tables.point_table_club_save(
        club, again, one_cell(again.data, 15, -15, tricks=13)
    )
    assert (third.version, third.club) == (3, club)


def test_a_refused_table_saves_nothing(club, point_table):
    with pytest.raises(ValidationError):
        point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -5))
    assert PointTable.objects.count() == 1


def test_a_club_admin_cannot_save_another_clubs_table(club, point_table):
    other = ClubFactory(name="Whist Club Liège")
    theirs = point_tables.point_table_club_save(
        other, point_table, one_cell(point_table.data, 6, -6)
    )
    with pytest.raises(ValidationError, match="autre club"):
        point_tables.point_table_club_save(club, theirs, one_cell(theirs.data, 6, -6))
    assert point_tables.club_table_versions(club, "rcwhist") == [point_table]


def test_the_other_games_values_as_a_form():
    data = preset_data("coeurs")
    assert point_tables.table_values(data) == {
        "heart": 1,
        "queen_of_spades": 12,
        "revoke": 25,
        "partie_deals": 1,
    }
    changed = point_tables.values_with(data, {"queen_of_spades": 13})
    assert [(c.row, c.before, c.after) for c in point_tables.table_changes(data, changed)] == [
        ("queen_of_spades", "12", "13")
    ]
    with pytest.raises(ValidationError):
        point_tables.values_with(data, {"format": 2})


def test_the_last_night_scored_again_with_a_change_writes_nothing(club, point_table, played):
    before = list(played.poules.get().deals.values_list("points", flat=True))
    rescored = last_night_rescored(club.pk, "rcwhist", one_cell(point_table.data, 6, -6))
    assert rescored.tournament == played
    assert rescored.problems == []
    by_seat = {line.player.pk: (line.before, line.after) for line in rescored.lines}
    seats = list(played.poules.get().seats.order_by("number"))
    assert by_seat[seats[0].player_id] == (5, 6)
    assert by_seat[seats[1].player_id] == (-5, -6)
    assert list(played.poules.get().deals.values_list("points", flat=True)) == before


def test_two_versions_side_by_side_mark_the_cells_that_differ():
    old = preset_data("rcwhist")
    new = one_cell(copy.deepcopy(old), 6, -6)
    rows = point_tables.side_by_side(old, new).rows
    row, before, differs = rows[0]
    assert before is not None
    assert [t for t, d in enumerate(differs) if d] == [9]
    assert not any(any(d) for _r, _b, d in rows[1:])


def test_the_club_lists_every_preset_and_its_own_versions_first(club, point_table):
    mine = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))
    tables = point_tables.club_point_tables(club)
    assert tables[0] == mine  # the club's default table, in its own version
    assert {t.name for t in tables} >= {"rcwhist", "whisthub", "coeurs", "besigue", "robre10"}
    other = point_tables.club_point_tables(ClubFactory(name="Whist Club Liège"))
    assert next(t for t in other if t.name == "rcwhist") == point_table


# A club's table in the night files it exports and imports


def test_a_night_exported_with_the_clubs_own_table_stays_that_clubs_on_import(
    club, point_table, imported_night, django_capture_on_commit_callbacks
):
    """The file carries club A's whole edited table. Imported by another club, it becomes that
    club's own table — never a new shared "rcwhist" every other club's next nights would play.
    Imported by club A again, it is A's own version."""
    mine = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))
    imported_night.point_table = mine
    imported_night.save(update_fields=["point_table"])
    document = tournament_export(imported_night)
    assert document["rules"] == mine.data
    liege = ClubFactory(name="Whist Club Liège")
    third = ClubFactory(name="Whist Club Namur")

    with django_capture_on_commit_callbacks(execute=True):
        theirs = tournament_import({**copy.deepcopy(document), "club": liege.name})

    assert theirs.club == liege
    assert (theirs.point_table.club, theirs.point_table.name) == (liege, "rcwhist")
    assert theirs.point_table.data == mine.data
    assert list(PointTable.objects.filter(club__isnull=True)) == [point_table]
    assert point_table_for_preset("rcwhist", third) == point_table
    assert point_table_for_preset("rcwhist") == point_table
    assert point_table_for_preset("rcwhist", club) == mine

    again = {**copy.deepcopy(document), "date": "2024-10-24", "name": "Encore"}
    with django_capture_on_commit_callbacks(execute=True):
        ours = tournament_import(again)
    assert ours.point_table == mine
    assert PointTable.objects.count() == 3


def test_a_files_table_is_matched_in_the_importing_clubs_own_versions_first(club, point_table):
    mine = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))
    assert point_table_for_data(copy.deepcopy(mine.data), club) == mine
    assert point_table_for_data(preset_data("rcwhist"), club) == point_table
    liege = ClubFactory(name="Whist Club Liège")
    theirs = point_table_for_data(copy.deepcopy(mine.data), liege)
    assert (theirs.club, theirs.version) == (liege, 2)
    assert point_table_for_data(copy.deepcopy(mine.data), liege) == theirs


# Another club's tables are its own


def custom_table(name="secret-liege", label="Table privée de Liège"):
    data = copy.deepcopy(preset_data("rcwhist"))
    data.update(name=name, label=label)
    return data


def test_a_custom_table_imported_by_another_club_is_not_this_clubs(club, point_table):
    liege = ClubFactory(name="Whist Club Liège")
    theirs = point_table_for_data(custom_table(), liege)
    assert theirs.club == liege
    assert "secret-liege" not in {t.name for t in point_tables.club_point_tables(club)}
    assert point_tables.club_table_versions(club, "secret-liege") == []
    assert point_tables.club_current_table(club, "secret-liege") is None
    assert point_tables.club_current_table(liege, "secret-liege") == theirs


def test_a_shared_custom_table_is_seen_only_by_the_clubs_whose_nights_played_it(
    club, season, point_table
):
    """Custom tables stored shared before a club's own tables existed (older imports): a club
    sees one only where its own nights used it."""
    legacy = PointTable(game="belgian_whist", name="maison", version=1, data=custom_table("maison"))
    legacy.full_clean()
    legacy.save()
    liege = ClubFactory(name="Whist Club Liège")
    assert point_tables.club_table_versions(club, "maison") == []
    assert "maison" not in {t.name for t in point_tables.club_point_tables(liege)}
    TournamentFactory(club=club, season=season, point_table=legacy)
    assert point_tables.club_table_versions(club, "maison") == [legacy]
    assert "maison" in {t.name for t in point_tables.club_point_tables(club)}
    assert point_tables.club_current_table(liege, "maison") is None


# Saves that overlap


def test_a_save_made_from_a_version_that_changed_since_is_refused_in_words(club, point_table):
    mine = point_tables.point_table_club_save(club, point_table, one_cell(point_table.data, 6, -6))
    # The shared table again (a tab opened before): the club plays its own version now.
    with pytest.raises(ValidationError, match="a changé depuis"):
        point_tables.point_table_club_save(
            club, point_table, one_cell(point_table.data, 14, -14, tricks=13)
        )
    # The club's version, edited in place meanwhile (no night played it).
    opened = mine.checksum
    mine = point_tables.point_table_club_save(
        club, mine, one_cell(mine.data, 14, -14, tricks=13), based_on=opened
    )
    with pytest.raises(ValidationError, match="a changé depuis"):
        point_tables.point_table_club_save(
            club, mine, one_cell(mine.data, 15, -15, tricks=13), based_on=opened
        )
    mine.refresh_from_db()
    assert mine.data["rows"][0]["declarer"][9:14:4] == [6, 14]
    assert PointTable.objects.filter(club=club).count() == 1
