"""Club-night files in and out of the site: imported whole or not at all, exported as they
were scored, and read back to the same standings."""

from __future__ import annotations

import copy
import datetime
import io
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import transaction
from rest_framework.test import APIClient

from club.models import Club, Federation, Membership, Player, Season
from club.names import PUBLIC
from club.services import federation_open, federation_season_create
from games import services as games_services
from games.demo import random_night
from games.models import Deal, PointTable, Poule, Tournament
from games.nightfile import tournament_import, tournaments_import
from games.nightfile_export import tournament_export
from scoring import services as scoring_services
from scoring.engine.errors import DocumentRefused
from scoring.engine.night import rename_players, score_night_document
from scoring.models import FederationRanking, PouleStanding, RankingSnapshot, TournamentStanding
from scoring.services import tournament_publish
from tests.conftest import CLUB_NAME, persona
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, night_started

pytestmark = pytest.mark.django_db

ANNE, BRUNO, CHLOE, DIDIER, EVA = (
    "Anne Dupont",
    "Bruno Lemaire",
    "Chloé Martin",
    "Didier Peeters",
    "Eva Janssens",
)
# The example of night-format.md, as published.
EXAMPLE = {
    "format": "club-night/1",
    "club": "RCWhist La Chevalerie",
    "season": "2024",
    "date": "2024-03-14",
    "name": "Soirée du 14 mars",
    "game": "belgian_whist",
    "rules": "rcwhist",
    "tournament_points": "rcwhist",
    "players": [ANNE, BRUNO, CHLOE, DIDIER, EVA],
    "poules": [
        {
            "round": 1,
            "table": 1,
            "seats": [ANNE, BRUNO, CHLOE, DIDIER],
            "deals": [
                {"contract": "emballage", "bid": 8, "declarers": [ANNE, CHLOE], "tricks": 9},
                {"contract": "solo", "bid": 6, "declarers": [BRUNO], "tricks": 5},
                {"contract": "pass"},
                {
                    "contract": "petite_misere",
                    "declarers": [DIDIER, ANNE],
                    "tricks": {DIDIER: 0, ANNE: 2},
                },
                {
                    "contract": "trou",
                    "bid": 9,
                    "declarers": [CHLOE, BRUNO],
                    "tricks": 10,
                    "penalties": [{"player": ANNE, "points": 2}],
                },
            ],
        }
    ],
}


@pytest.fixture
def example():
    return copy.deepcopy(EXAMPLE)


def row_counts():
    """Rows of every model of the site, Django's own included."""
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def empty_the_database():
    Tournament.objects.all().delete()
    RankingSnapshot.objects.all().delete()
    Season.objects.all().delete()
    Club.objects.all().delete()
    Player.objects.all().delete()
    PointTable.objects.all().delete()
    site_apps = ("club", "games", "scoring")
    assert not any(n for label, n in row_counts().items() if label.startswith(site_apps))


def poule_results(tournament):
    """Per poule: seats by name, each deal's points by name, and the standings."""
    results = {}
    for poule in tournament.poules.prefetch_related("seats__player", "deals", "standings__player"):
        seats = [seat.player.display_name for seat in poule.seats.order_by("number")]
        results[(poule.round, poule.table)] = {
            "seats": seats,
            "points": [
                dict(zip(seats, deal.points, strict=True))
                for deal in poule.deals.order_by("position")
            ],
            "dealers": [seats[deal.dealer - 1] for deal in poule.deals.order_by("position")],
            "standings": sorted(
                (
                    line.player.display_name,
                    line.rank,
                    line.tied,
                    line.game_points,
                    line.tournament_points,
                )
                for line in poule.standings.all()
            ),
        }
    return results


def tournament_results(tournament):
    return [
        (
            line.player.display_name,
            line.rank,
            line.tied,
            line.tournament_points,
            line.game_points,
            line.poules_played,
            line.poules_won,
        )
        for line in TournamentStanding.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("rank", "player__display_name")
    ]


# --------------------------------------------------------------------------------------------
# Import


def test_the_example_night_is_imported_as_a_closed_night_of_the_club(example):
    tournament = tournament_import(example)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CLOSED
    assert (tournament.club.name, tournament.season.name) == ("RCWhist La Chevalerie", "2024")
    assert str(tournament.date) == "2024-03-14"
    assert tournament.name == "Soirée du 14 mars"
    assert (tournament.point_table.name, tournament.point_table.version) == ("rcwhist", 1)
    assert sorted(
        Player.objects.in_club(tournament.club).values_list("display_name", flat=True)
    ) == [
        ANNE,
        BRUNO,
        CHLOE,
        DIDIER,
        EVA,
    ]
    assert Membership.objects.filter(club=tournament.club).count() == 5


def test_the_night_returned_by_an_import_is_closed(example):
    assert tournament_import(example).status == Tournament.Status.CLOSED


def test_the_example_nights_deals_are_stored_by_seat_number(example):
    tournament = tournament_import(example)

    poule = tournament.poules.get()
    assert [seat.player.display_name for seat in poule.seats.order_by("number")] == [
        ANNE,
        BRUNO,
        CHLOE,
        DIDIER,
    ]
    assert [deal.data for deal in poule.deals.order_by("position")] == [
        {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
        {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 5},
        {"contract": "pass"},
        {"contract": "petite_misere", "declarers": ["4", "1"], "tricks": {"4": 0, "1": 2}},
        {
            "contract": "trou",
            "bid": 9,
            "declarers": ["3", "2"],
            "tricks": 10,
            "penalties": [{"player": "1", "points": 2}],
        },
    ]
    assert poule.counted_deals == 4


def test_the_example_night_has_the_points_and_standings_the_engine_gives(example):
    scored = score_night_document(example)

    tournament = tournament_import(example)

    [poule] = poule_results(tournament).values()
    assert poule["points"] == [deal["points"] for deal in scored["poules"][0]["deals"]]
    assert poule["dealers"] == [deal["dealer"] for deal in scored["poules"][0]["deals"]]
    assert poule["standings"] == sorted(
        (
            line["player"],
            line["rank"],
            line["tied"],
            line["game_points"],
            Fraction(line["tournament_points"]),
        )
        for line in scored["poules"][0]["standings"]
    )
    assert tournament_results(tournament) == [
        (CHLOE, 1, False, Fraction(5), 20, 1, 1),
        (DIDIER, 2, False, Fraction(3), 10, 1, 0),
        (BRUNO, 3, False, Fraction(0), -2, 1, 0),
        (ANNE, 4, False, Fraction(0), -28, 1, 0),
    ]


def test_an_imported_night_finds_the_clubs_members_by_name(night_document, club, club_members):
    players = Player.objects.count()

    tournament = tournament_import(night_document)

    assert Player.objects.count() == players
    assert tournament.club == club
    seated = set(Player.objects.filter(seats__tournament=tournament).distinct())
    assert len(seated) == 9
    assert seated <= set(club_members)


def test_an_imported_night_of_nine_has_a_table_of_5_and_a_table_of_4_each_round(imported_night):
    tables = sorted((poule.round, poule.seats.count()) for poule in imported_night.poules.all())

    assert tables == [(1, 4), (1, 5), (2, 4), (2, 5), (3, 4), (3, 5)]


def test_importing_a_night_closes_it_and_ranks_the_season(imported_night):
    ranking = RankingSnapshot.objects.get(season=imported_night.season, published_at__isnull=True)

    assert ranking.tournaments == 1
    assert ranking.lines.count() == 9


def test_a_refused_file_writes_nothing_and_lists_every_located_problem(example):
    example["rules"] = "rcwist"
    example["poules"][0]["seats"][3] = "Eva"
    before = row_counts()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(example)

    assert row_counts() == before
    [rules, seats] = refused.value.problems
    assert rules.startswith('rules: unknown preset "rcwist"')
    assert seats == 'poules[0].seats: "Eva" is not in players'


def test_a_refused_deal_names_its_poule_and_deal(example):
    example["poules"][0]["deals"][0]["declarers"] = [ANNE]
    example["poules"][0]["deals"][1]["tricks"] = 14
    before = row_counts()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(example)

    assert row_counts() == before
    assert refused.value.problems == (
        'poules[0].deals[0].declarers: contract "emballage" needs exactly 2 declarers, got 1',
        "poules[0].deals[1].tricks: 14 is outside 0..13",
    )


def test_a_file_refused_into_an_existing_club_writes_nothing(night_document, club_members):
    night_document["poules"][-1]["deals"][-1] = {"contract": "solo", "bid": 6, "tricks": 7}
    before = row_counts()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(night_document)

    assert row_counts() == before
    [problem] = refused.value.problems
    assert problem.startswith(f"poules[5].deals[{len(night_document['poules'][5]['deals']) - 1}]")


def test_importing_the_same_night_twice_is_refused(example):
    tournament_import(example)
    before = row_counts()

    with pytest.raises(ValidationError) as refused:
        tournament_import(copy.deepcopy(EXAMPLE))

    assert row_counts() == before
    assert "Soirée du 14 mars" in refused.value.messages[0]


def test_a_night_outside_its_existing_season_is_refused_and_writes_nothing(example, club):
    Season.objects.create(
        club=Club.objects.get(name=example["club"]),
        name="2024",
        start="2024-09-01",
        end="2025-06-30",
    )
    before = row_counts()

    with pytest.raises(ValidationError) as refused:
        tournament_import(example)

    assert row_counts() == before
    assert "date" in refused.value.message_dict


def test_the_nights_of_a_season_across_two_years_are_imported_into_that_season(example):
    september, january = copy.deepcopy(EXAMPLE), copy.deepcopy(EXAMPLE)
    september.update(season="2024-2025", date="2024-09-12", name="Soirée de septembre")
    january.update(season="2024-2025", date="2025-01-09", name="Soirée de janvier")

    tournament_import(september)
    tournament_import(january)

    assert [tournament.season.name for tournament in Tournament.objects.all()] == ["2024-2025"] * 2


# --------------------------------------------------------------------------------------------
# Export and the round trip


def test_an_exported_night_is_the_file_it_was_imported_from_with_its_results(example):
    tournament = tournament_import(example)

    exported = tournament_export(tournament)

    scored = score_night_document(example)
    assert exported["format"] == "club-night-result/1"
    assert exported["rules"] == "rcwhist"
    assert exported["standings"] == scored["standings"]
    assert exported["poules"][0]["standings"] == scored["poules"][0]["standings"]
    for ours, theirs in zip(
        exported["poules"][0]["deals"], scored["poules"][0]["deals"], strict=True
    ):
        assert ours == theirs


def test_an_export_can_name_players_by_their_public_name(example):
    tournament = tournament_import(example)
    Player.objects.filter(display_name=CHLOE).update(public_name=Player.PublicName.INITIALS)

    exported = tournament_export(tournament, name_of=PUBLIC.name)

    assert exported["standings"][0]["player"] == "C.M."
    assert "C.M." in exported["poules"][0]["seats"]
    assert CHLOE not in json.dumps(exported, ensure_ascii=False)


def test_a_night_exported_and_imported_into_an_empty_site_has_the_same_results(imported_night):
    poules, standings = poule_results(imported_night), tournament_results(imported_night)
    assert {len(poule["seats"]) for poule in poules.values()} == {4, 5}
    exported = tournament_export(imported_night)

    empty_the_database()
    restored = tournament_import(exported)

    assert poule_results(restored) == poules
    assert tournament_results(restored) == standings
    assert tournament_export(restored) == exported


def test_a_night_without_a_name_is_exported_without_one_and_imports_back(imported_night):
    Tournament.objects.filter(pk=imported_night.pk).update(name="")
    imported_night.refresh_from_db()
    exported = tournament_export(imported_night)
    assert "name" not in exported

    empty_the_database()
    restored = tournament_import(exported)

    assert restored.name == ""
    assert tournament_export(restored) == exported


# --------------------------------------------------------------------------------------------
# Commands


def test_import_nights_reports_each_imported_night(tmp_path, example):
    path = tmp_path / "2024-03-14.json"
    path.write_text(json.dumps(example, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()

    call_command("import_nights", str(path), stdout=out)

    assert out.getvalue() == f"{path}: imported Soirée du 14 mars (4 players)\n"
    assert Tournament.objects.filter(name="Soirée du 14 mars").exists()


def test_import_nights_fails_and_lists_the_problems_of_a_bad_file(tmp_path, example):
    example["poules"][0]["deals"][1]["tricks"] = 14
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(example), encoding="utf-8")
    not_json = tmp_path / "notes.txt"
    not_json.write_text("Anne 12, Bruno 8", encoding="utf-8")
    err = io.StringIO()
    before = row_counts()

    with pytest.raises(CommandError) as failed:
        call_command("import_nights", str(bad), str(not_json), stderr=err)

    assert failed.value.returncode == 1
    assert str(failed.value) == "2 of 2 files refused"
    assert err.getvalue().splitlines() == [
        f"{bad}: refused, nothing imported",
        "  poules[0].deals[1].tricks: 14 is outside 0..13",
        f"{not_json}: refused, nothing imported",
        "  not JSON (line 1, column 1: Expecting value)",
    ]
    assert row_counts() == before


def test_import_nights_imports_the_good_files_and_refuses_the_bad_ones(tmp_path, example):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(example), encoding="utf-8")
    missing = tmp_path / "missing.json"
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError, match="1 of 2 files refused"):
        call_command("import_nights", str(good), str(missing), stdout=out, stderr=err)

    assert out.getvalue().startswith(f"{good}: imported")
    assert err.getvalue().startswith(f"{missing}: refused, nothing imported\n  cannot be read")
    assert Tournament.objects.count() == 1


def test_export_night_writes_the_night_to_standard_output(example):
    tournament = tournament_import(example)
    out = io.StringIO()

    call_command("export_night", str(tournament.pk), stdout=out)

    assert json.loads(out.getvalue()) == tournament_export(tournament)


def test_export_night_writes_the_night_to_a_file(tmp_path, example):
    tournament = tournament_import(example)
    path = tmp_path / "night.json"

    call_command("export_night", str(tournament.pk), "-o", str(path), stderr=io.StringIO())

    assert json.loads(path.read_text(encoding="utf-8")) == tournament_export(tournament)


def test_export_night_refuses_an_unknown_night(db):
    with pytest.raises(CommandError, match="no club night with id 999"):
        call_command("export_night", "999")


def test_the_stored_points_of_every_deal_sum_to_zero(imported_night):
    # rcwhist is a zero-sum table: what the declarers win, the defenders lose.
    deals = Deal.objects.filter(poule__tournament=imported_night)

    assert deals.count() > 60
    assert all(sum(deal.points) == 0 for deal in deals)
    assert Poule.objects.filter(tournament=imported_night).count() == 6
    assert PouleStanding.objects.filter(poule__tournament=imported_night).count() == 27


def test_an_imported_night_stores_what_a_scorer_recording_its_deals_would(
    night_document, club_members
):
    """The import stores the engine's points and standings in bulk: the very rows the score
    sheet writes when the same deals are recorded one by one."""
    imported = tournament_import(night_document)
    recorded = games_services.tournament_create(
        club=imported.club,
        season=imported.season,
        date=imported.date,
        name="recorded by hand",
        game=imported.game,
        point_table=imported.point_table,
        tournament_points=imported.tournament_points,
        rounds=imported.rounds,
    )
    night_started(recorded)
    players = {player.display_name: player for player in club_members}
    for raw in night_document["poules"]:
        seats = [players[name] for name in raw["seats"]]
        poule = games_services.poule_create(
            recorded, round=raw["round"], table=raw["table"], players=seats
        )
        number = {name: str(n) for n, name in enumerate(raw["seats"], start=1)}
        for deal in raw["deals"]:
            scoring_services.deal_record(
                poule, rename_players(deal, lambda name, number=number: number.get(name, name))
            )

    assert poule_results(imported) == poule_results(recorded)
    assert tournament_results(imported) == tournament_results(recorded)

    def sheets(tournament):
        return [
            (
                p.round,
                p.table,
                p.counted_deals,
                [(d.position, d.data, d.counted) for d in p.deals.all()],
            )
            for p in tournament.poules.order_by("round", "table").prefetch_related("deals")
        ]

    assert sheets(imported) == sheets(recorded)
    assert (
        sum(len(raw["deals"]) for raw in night_document["poules"])
        == Deal.objects.filter(poule__tournament=imported).count()
    )


# The club-night file of an inter-club night: exported with its host club and federation
# season, imported back onto that season (refused, located at ``federation``, when the site
# cannot hold it there), its visitors seated from their own clubs without joining the host, and
# round-tripped into an emptied site to the same night, season and standings.


NEIGHBOUR = "Cercle voisin"
LEAGUE = "Ligue de whist du Brabant"
HOSTS = ["Anne Dupont", "Bruno Lemaire", "Chloé Martin", "Didier Peeters", "Eva Janssens"]
VISITORS = ["Hugo Claes", "Inès Wouters", "Jules Maes", "Karin Jacobs"]


def league_world() -> tuple[Club, Club, Any]:
    """The host club with five members, its neighbour with four, one federation of both and
    its 2024 season: what an emptied site is set up with again, names only."""
    host = ClubFactory(name=CLUB_NAME, slug="rcwhist")
    neighbour = ClubFactory(name=NEIGHBOUR)
    for club, names in ((host, HOSTS), (neighbour, VISITORS)):
        SeasonFactory(club=club, year=2024)
        for name in names:
            first, _sep, last = name.partition(" ")
            PlayerFactory(club=club, first_name=first, last_name=last, display_name=name)
    federation = federation_open(LEAGUE, clubs=[host, neighbour])
    fed_season = federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    return host, neighbour, fed_season


@pytest.fixture
def league():
    return league_world()


def interclub_document(members: list[str] | None = None) -> dict[str, Any]:
    """Nine players of both clubs at the host's night of 14 March, for the federation."""
    doc = random_night(
        random.Random(25),
        club=CLUB_NAME,
        season="2024",
        date=datetime.date(2024, 3, 14),
        members=members or HOSTS + VISITORS,
        present=9,
    )
    return {**doc, "federation": {"name": LEAGUE, "season": "2024"}}


def refused_places(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(DocumentRefused) as refused:
        tournament_import(doc)
    return [error.place for error in refused.value.errors]


def test_an_interclub_night_is_imported_onto_its_federation_season(league):
    host, neighbour, fed_season = league
    members_before = Membership.objects.filter(club=host).count()

    night = tournament_import(interclub_document())

    assert night.club == host and night.federation_season == fed_season
    # The visitors played as themselves, from their own club, without joining the host.
    seated = set(night.standings.values_list("player__display_name", flat=True))
    assert seated == set(HOSTS + VISITORS)
    visitors = Player.objects.filter(display_name__in=VISITORS)
    assert visitors.count() == len(VISITORS)
    assert not Membership.objects.filter(club=host, player__in=visitors).exists()
    assert Membership.objects.filter(club=host).count() == members_before


def test_a_name_unknown_to_every_club_of_the_federation_joins_the_host_as_a_guest(league):
    host, neighbour, _fed_season = league
    members = HOSTS + VISITORS[:3] + ["Zoé Inconnue"]

    night = tournament_import(interclub_document(members))

    newcomer = Player.objects.get(display_name="Zoé Inconnue")
    assert night.standings.filter(player=newcomer).exists()
    [membership] = Membership.objects.filter(player=newcomer)
    assert membership.club == host and membership.status == Membership.Status.GUEST


def test_a_club_nights_new_names_still_join_as_members(league):
    host, _neighbour, _fed_season = league
    doc = interclub_document(HOSTS + VISITORS[:3] + ["Zoé Inconnue"])
    del doc["federation"]

    night = tournament_import(doc)

    assert night.federation_season is None
    # A club night is the club's own: the neighbour's players join it, as any new name does.
    membership = Membership.objects.get(club=host, player__display_name="Zoé Inconnue")
    assert membership.status == Membership.Status.ACTIVE
    assert Membership.objects.filter(club=host, player__display_name=VISITORS[0]).exists()


@pytest.mark.parametrize(
    ("federation", "words"),
    [
        ({"name": "Ligue inconnue", "season": "2024"}, "no federation is called"),
        ({"name": LEAGUE, "season": "1999"}, "has no season"),
        ("Ligue de whist du Brabant", "expected"),
        ({"name": LEAGUE}, "expected"),
    ],
)
def test_a_federation_the_site_does_not_know_is_refused_at_its_place(league, federation, words):
    doc = {**interclub_document(), "federation": federation}
    players_before = Player.objects.count()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(doc)

    [error] = refused.value.errors
    assert error.place == "federation" and words in error.message
    assert not Tournament.objects.exists()
    assert Player.objects.count() == players_before


def test_a_club_outside_the_federation_cannot_have_held_its_night(league):
    outside = ClubFactory(name="Club d'ailleurs")
    SeasonFactory(club=outside, year=2024)
    doc = {**interclub_document(), "club": outside.name}

    assert refused_places(doc) == ["federation"]
    assert not Tournament.objects.exists()
    assert not Membership.objects.filter(club=outside).exists()


def test_a_night_outside_the_federation_season_is_refused(league):
    _host, _neighbour, fed_season = league
    fed_season.end = datetime.date(2024, 2, 29)
    fed_season.save()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(interclub_document())

    assert refused.value.errors[0].place == "federation"
    assert "outside the federation season" in refused.value.errors[0].message
    assert not Tournament.objects.exists()


def test_a_visitors_name_two_players_of_the_federation_bear_is_refused(league):
    _host, _neighbour, fed_season = league
    third = ClubFactory(name="Whist Club Nivelles")
    fed_season.federation.clubs.add(third)
    PlayerFactory(club=third, first_name="Hugo", last_name="Claes", display_name=VISITORS[0])
    doc = interclub_document()
    assert VISITORS[0] in doc["players"]

    places = refused_places(doc)

    assert places == [f"players[{doc['players'].index(VISITORS[0])}]"]
    assert not Tournament.objects.exists()


def test_the_export_names_the_host_club_and_the_federation_season(league):
    night = tournament_import(interclub_document())

    exported = tournament_export(night)

    assert exported["club"] == CLUB_NAME
    assert exported["federation"] == {"name": LEAGUE, "season": "2024"}
    assert list(exported).index("federation") == list(exported).index("season") + 1
    club_night = interclub_document()
    del club_night["federation"]
    club_night["date"] = "2024-03-21"
    assert "federation" not in tournament_export(tournament_import(club_night))


def test_several_files_report_a_refused_federation_in_words(league):
    good, bad = interclub_document(), interclub_document()
    bad["date"] = "2024-03-21"
    bad["federation"] = {"name": LEAGUE, "season": "2031"}

    outcomes = tournaments_import([good, bad])

    assert isinstance(outcomes[0], Tournament)
    assert outcomes[1] == [
        'federation: the federation "Ligue de whist du Brabant" has no season "2031"'
    ]


def test_the_api_import_refuses_an_unknown_federation_located(league):
    host, _neighbour, _fed_season = league
    api = APIClient()
    api.force_login(persona(host, "president", Membership.Role.ADMIN))
    path = f"/api/v1/clubs/{host.slug}/nights/import/"
    doc = {**interclub_document(), "federation": {"name": "Ligue inconnue", "season": "2024"}}

    response = api.post(path, doc, format="json")

    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert problem["place"] == "federation" and problem["code"] == "federation_unknown"
    created = api.post(path, interclub_document(), format="json")
    assert created.status_code == 201
    assert created.json()["federation"] == Federation.objects.get().slug
    assert created.json()["federation_season"] == "2024"


# --------------------------------------------------------------------------------------------
# Round trip


def empty_the_site() -> None:
    FederationRanking.objects.all().delete()
    Tournament.objects.all().delete()
    Federation.objects.all().delete()
    RankingSnapshot.objects.all().delete()
    Season.objects.all().delete()
    Club.objects.all().delete()
    Player.objects.all().delete()
    PointTable.objects.all().delete()
    site = ("club", "games", "scoring")
    counts = {m._meta.label: m._default_manager.count() for m in apps.get_models()}
    assert not any(n for label, n in counts.items() if label.startswith(site)), counts


def night_results(night: Tournament) -> list[tuple[Any, ...]]:
    return [
        (line.player.display_name, line.rank, line.tied, line.tournament_points, line.game_points)
        for line in TournamentStanding.objects.filter(tournament=night)
        .select_related("player")
        .order_by("rank", "player__display_name")
    ]


def federation_results(night: Tournament) -> list[tuple[Any, ...]]:
    ranking = FederationRanking.objects.get(season=night.federation_season)
    return [
        (line.player.display_name, line.rank, line.tournament_points, line.clubs_played)
        for line in ranking.lines.select_related("player").order_by("position")
    ]


def test_an_interclub_night_exported_and_imported_into_an_emptied_site_is_the_same(
    league, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        night = tournament_publish(tournament_import(interclub_document()))
    standings, ranking = night_results(night), federation_results(night)
    exported = tournament_export(night)
    assert exported["federation"] == {"name": LEAGUE, "season": "2024"}

    empty_the_site()
    _host, neighbour, fed_season = league_world()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        restored = tournament_publish(tournament_import(copy.deepcopy(exported)))

    assert restored.federation_season == fed_season
    assert night_results(restored) == standings
    assert tournament_export(restored) == exported
    assert federation_results(restored) == ranking
    # Its visitors came from their own club again.
    assert not Membership.objects.filter(
        club=restored.club, player__display_name__in=VISITORS
    ).exists()
    assert Membership.objects.filter(club=neighbour).count() == len(VISITORS)
