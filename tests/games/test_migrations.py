"""Point tables moved from ``scoring`` to ``games`` (games 0005–0006, club 0004, scoring 0002):
a database holding the demo club goes back to the old layout and forward again, and keeps
every point table, every night's table, and the club's choice."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games import point_tables
from games.models import point_table_checksum
from games.services import point_table_for_preset
from scoring.engine.tables import preset_data
from scoring.fields import POINT_UNITS
from tests.factories import ClubFactory, TournamentFactory

BEFORE_THE_MOVE = [
    ("club", "0003_invitations"),
    ("games", "0004_result_emails"),
    ("scoring", "0001_initial"),
]


def migrate(targets: list[tuple[str, str]] | None = None):
    """Migrate to ``targets`` (the latest migrations when None); the apps of that state."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def what_the_club_keeps(apps, point_table_app: str) -> dict:
    PointTable = apps.get_model(point_table_app, "PointTable")
    Tournament = apps.get_model("games", "Tournament")
    Deal = apps.get_model("games", "Deal")
    TournamentStanding = apps.get_model("scoring", "TournamentStanding")
    return {
        "point_tables": sorted(
            PointTable.objects.values_list("pk", "name", "version", "checksum", "data")
        ),
        "nights": sorted(Tournament.objects.values_list("pk", "point_table_id", "status")),
        "deals": sorted(Deal.objects.values_list("pk", "data", "points")),
        "standings": TournamentStanding.objects.count(),
    }


@pytest.mark.django_db(transaction=True)
def test_the_demo_club_keeps_its_point_tables_and_nights_across_the_move():
    call_command("demo_club", stdout=io.StringIO())
    latest = migrate()
    before = what_the_club_keeps(latest, "games")
    assert before["point_tables"] and before["nights"] and before["deals"]

    old = migrate(BEFORE_THE_MOVE)
    assert what_the_club_keeps(old, "scoring") == before
    assert old.get_model("club", "Club").objects.get(slug="rcwhist-la-chevalerie").default_game == (
        "belgian_whist"
    )

    latest = migrate()
    assert what_the_club_keeps(latest, "games") == before
    assert latest.get_model("club", "Club").objects.get(
        slug="rcwhist-la-chevalerie"
    ).default_rules == ("rcwhist")
    content_types = latest.get_model("contenttypes", "ContentType").objects
    assert not content_types.filter(app_label="scoring", model="pointtable").exists()


@pytest.mark.django_db(transaction=True)
def test_a_club_that_chose_a_point_table_keeps_its_name_as_its_default():
    old = migrate(BEFORE_THE_MOVE)
    PointTable = old.get_model("scoring", "PointTable")
    iwwa = PointTable.objects.create(
        game="belgian_whist", name="iwwa", version=1, data=preset_data("iwwa"), checksum="x"
    )
    Club = old.get_model("club", "Club")
    chose = Club.objects.create(name="Whist Namur", slug="namur", default_point_table=iwwa)
    hearts = Club.objects.create(name="Cœurs Liège", slug="liege", default_game="hearts")

    latest = migrate()
    clubs = latest.get_model("club", "Club").objects
    assert clubs.get(pk=chose.pk).default_rules == "iwwa"
    assert clubs.get(pk=hearts.pk).default_rules == "coeurs"
    assert latest.get_model("games", "PointTable").objects.get(pk=iwwa.pk).name == "iwwa"


@pytest.mark.django_db(transaction=True)
def test_night_standings_stored_before_their_units_get_them_exactly():
    """scoring 0003 fills each stored standing's points in units from its fraction."""
    call_command("demo_club", stdout=io.StringIO())
    migrate([("scoring", "0002_point_table_moves_to_games")])
    latest = migrate()
    rows = latest.get_model("scoring", "TournamentStanding").objects.values_list(
        "tournament_points", "points_units"
    )
    assert any(points for points, _units in rows)
    assert all(units == Fraction(points) * POINT_UNITS for points, units in rows)


def _night_with_a_deal(apps, point_table):
    """A club's night scored with ``point_table`` (one deal): the table is used."""
    club = apps.get_model("club", "Club").objects.create(
        name="Whist Namur", slug="namur", pages_changed=timezone.now()
    )
    season = apps.get_model("club", "Season").objects.create(
        club=club, name="2026", slug="2026", start="2026-01-01", end="2026-12-31"
    )
    night = apps.get_model("games", "Tournament").objects.create(
        club=club, season=season, date="2026-03-14", game=point_table.game, point_table=point_table
    )
    poule = apps.get_model("games", "Poule").objects.create(tournament=night, round=1, table=1)
    apps.get_model("games", "Deal").objects.create(poule=poule, number=1, data={}, points=[])
    return club


BEFORE_TWO_ROBRES = ("games", "0007_poule_corrections")


def before_two_robres() -> list[tuple[str, str]]:
    """Games just before the robre presets changed; every other app at its latest migration
    that does not need a later one of games (a data migration that rewrites stored results,
    such as the cote's, comes after every app's migrations of its time)."""
    return games_before(BEFORE_TWO_ROBRES)


def games_before(games_node: tuple[str, str]) -> list[tuple[str, str]]:
    """Games at ``games_node``, every other app at its latest migration that fits with it."""
    graph = MigrationExecutor(connection).loader.graph
    allowed = set(graph.forwards_plan(games_node))

    def fits(node: tuple[str, str]) -> bool:
        return all(n[0] != "games" or n in allowed for n in graph.forwards_plan(node))

    targets = [games_node]
    for app in sorted({app for app, _name in graph.leaf_nodes()} - {"games"}):
        nodes = [n for n in graph.nodes if n[0] == app and fits(n)]
        targets.append(max(nodes, key=lambda n: len(graph.forwards_plan(n))))
    return targets


def _old_robre(name: str) -> dict:
    data = preset_data(name)
    del data["robres"]
    return data


@pytest.mark.django_db(transaction=True)
def test_the_stored_robre_presets_play_two_robres_and_scored_nights_keep_their_version():
    old = migrate(before_two_robres())
    PointTable = old.get_model("games", "PointTable")
    unused = PointTable.objects.create(
        game="whist", name="robre5", version=1, data=_old_robre("robre5"), checksum="x"
    )
    used = PointTable.objects.create(
        game="whist", name="robre10", version=1, data=_old_robre("robre10"), checksum="y"
    )
    _night_with_a_deal(old, used)

    latest = migrate()
    tables = latest.get_model("games", "PointTable").objects
    assert tables.get(pk=unused.pk).data == preset_data("robre5")
    assert tables.get(pk=used.pk).data == _old_robre("robre10")  # its night keeps it
    newer = tables.get(name="robre10", version=2)
    assert newer.data == preset_data("robre10")
    assert newer.checksum == point_table_checksum(preset_data("robre10"))


@pytest.mark.django_db(transaction=True)
def test_a_clubs_own_robre_table_is_left_as_it_is():
    old = migrate(before_two_robres())
    data = {**_old_robre("robre10"), "target": 12}
    PointTable = old.get_model("games", "PointTable")
    own = PointTable.objects.create(game="whist", name="robre10", version=1, data=data)
    latest = migrate()
    assert latest.get_model("games", "PointTable").objects.get(pk=own.pk).data == data


@pytest.mark.django_db(transaction=True)
def test_two_clubs_own_versions_go_back_as_shared_tables_named_after_their_club():
    """games 0010 backwards: before it, one version number per table name for the whole site.
    Two clubs' own "rcwhist" v2 become "rcwhist-<club>" (each club's nights keep theirs), and
    the latest shared "rcwhist" stays the shared one, not a club's."""
    shared = point_table_for_preset("rcwhist")
    own = {}
    for name, slug, points in (("Whist Namur", "namur", 6), ("Whist Liège", "liege", 7)):
        club = ClubFactory(name=name, slug=slug)
        data = point_tables.grid_with(shared.data, {(0, 13): (14 + points, -14 - points)})
        own[slug] = point_tables.point_table_club_save(club, shared, data)
        assert own[slug].version == 2
    night = TournamentFactory(club=own["namur"].club, point_table=own["namur"])

    old = migrate([("games", "0009_deal_client_key_poule_extra_deals")])
    tables = old.get_model("games", "PointTable").objects
    assert tables.filter(name="rcwhist").order_by("-version").first().pk == shared.pk
    for slug, table in own.items():
        back = tables.get(pk=table.pk)
        assert (back.name, back.version, back.data) == (f"rcwhist-{slug}", 2, table.data)
    assert old.get_model("games", "Tournament").objects.get(pk=night.pk).point_table_id == (
        own["namur"].pk
    )

    latest = migrate()
    assert latest.get_model("games", "PointTable").objects.count() == 3


BEFORE_TROELA_24 = ("games", "0016_unnamed_nights_default_name")


def _old_iwwa() -> dict:
    """The IWWA preset as shipped before §1.5's decision: troela (trou 9) 28 at 13 tricks."""
    data = preset_data("iwwa")
    troela = next(r for r in data["rows"] if r["contract"] == "trou" and r["bid"] == 9)
    troela["declarer"][13], troela["defender"][13] = 28, -28
    return data


@pytest.mark.django_db(transaction=True)
def test_the_stored_iwwa_preset_gives_troela_24_and_scored_nights_keep_their_version():
    old = migrate(games_before(BEFORE_TROELA_24))
    PointTable = old.get_model("games", "PointTable")
    used = PointTable.objects.create(
        game="belgian_whist", name="iwwa", version=1, data=_old_iwwa(), checksum="x"
    )
    club = _night_with_a_deal(old, used)
    own_data = point_tables.grid_with(_old_iwwa(), {(0, 13): (15, -15)})
    own = PointTable.objects.create(
        game="belgian_whist", club=club, name="iwwa", version=2, data=own_data, checksum="y"
    )

    latest = migrate()
    tables = latest.get_model("games", "PointTable").objects
    assert tables.get(pk=used.pk).data == _old_iwwa()  # its night keeps the points it gave
    newer = tables.get(name="iwwa", club__isnull=True, version=3)
    assert newer.data == preset_data("iwwa")
    assert newer.checksum == point_table_checksum(preset_data("iwwa"))
    assert tables.get(pk=own.pk).data == own_data  # the club's own grid is its own
    # The next night of a club that plays the shared preset scores troela 24.
    assert point_table_for_preset("iwwa").pk == newer.pk


@pytest.mark.django_db(transaction=True)
def test_an_iwwa_preset_no_deal_used_is_fixed_in_place():
    old = migrate(games_before(BEFORE_TROELA_24))
    unused = old.get_model("games", "PointTable").objects.create(
        game="belgian_whist", name="iwwa", version=1, data=_old_iwwa(), checksum="x"
    )

    latest = migrate()
    tables = latest.get_model("games", "PointTable").objects
    assert list(tables.filter(name="iwwa").values_list("pk", "version")) == [(unused.pk, 1)]
    fixed = tables.get(pk=unused.pk)
    assert (fixed.data, fixed.checksum) == (
        preset_data("iwwa"),
        point_table_checksum(preset_data("iwwa")),
    )
