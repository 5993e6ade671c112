"""The yearly ranking: published for everybody, provisional for club admins only, frozen when
published, exported as CSV and Excel, archived season by season."""

from __future__ import annotations

import csv
import datetime
import io

import openpyxl
import pandas
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import Player
from games.services import poule_create
from scoring.models import RankingSnapshot
from scoring.services import deal_record, ranking_publish, season_ranking_update, tournament_close
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, TournamentFactory

pytestmark = pytest.mark.django_db

# Seat 1 makes a solo: +9 for them, -3 for each of the three others. The winner of a poule of
# four gets 5 tournament points; the three others, tied second and negative, get nothing.
SOLO_BY_SEAT_1 = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
# The club, its seasons, the published ranking and its lines; a club admin's session, user and
# role, the live ranking and its lines, and whether its computing is still pending on top.
RANKING_PAGE_QUERIES = 4
RANKING_PAGE_ADMIN_QUERIES = 10
# The club, the published rankings, their winners.
ARCHIVE_QUERIES = 3
HEADER = [
    "Rang",
    "Joueur",
    "Soirées jouées",
    "Soirées retenues",
    "Soirées gagnées",
    "Points de tournoi",
    "Points de jeu",
]


def closed_night(season, players, day, name=None):
    """A closed night of ``season``: ``players`` at tables of four in that order, seat 1 of
    each table winning it with one solo."""
    tournament = TournamentFactory(
        club=season.club,
        season=season,
        date=season.start + datetime.timedelta(days=day),
        **({"name": name} if name else {}),
    )
    for table, start in enumerate(range(0, len(players), 4), start=1):
        poule = poule_create(tournament, round=1, table=table, players=players[start : start + 4])
        deal_record(poule, SOLO_BY_SEAT_1)
    return tournament_close(tournament, unfinished_ok=True)


def played_season(season, players, tournaments):
    """``nights`` closed nights of ``season``; the seating turns by one each night so that
    the wins are shared. Returns the live ranking, as closing the nights leaves it."""
    for day in range(tournaments):
        turn = day % len(players)
        closed_night(season, players[turn:] + players[:turn], day=7 * day)
    return season_ranking_update(season)


def season_url(season, name="ranking-season"):
    return reverse(name, args=[season.club.slug, season.slug])


def export_url(season, fmt):
    return reverse("ranking-export", args=[season.club.slug, season.slug, fmt])


def csv_rows(response):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))


def xlsx_rows(response):
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def count_queries(client, path):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.fixture
def anne(club):
    return PlayerFactory(
        first_name="Anne", last_name="Dupont", display_name="Anne Dupont", club=club
    )


@pytest.fixture
def bruno(club):
    return PlayerFactory(
        first_name="Bruno", last_name="Lemaire", display_name="Bruno Lemaire", club=club
    )


@pytest.fixture
def shy(club):
    """A member who chose to appear under his initials on every public page."""
    return PlayerFactory(
        first_name="Géraldine",
        last_name="Vandenberghe",
        display_name="Géraldine Vandenberghe",
        public_name=Player.PublicName.INITIALS,
        club=club,
    )


@pytest.fixture
def table(club, anne, bruno):
    """Anne, Bruno and two more members: a table of four."""
    return [anne, bruno, *PlayerFactory.create_batch(2, club=club)]


@pytest.fixture
def published(season, table):
    """Season 2024: Anne won the one night, and the club admin published the ranking."""
    closed_night(season, table, day=10)
    return ranking_publish(season)


# What everybody sees -------------------------------------------------------------------------


def test_the_published_ranking_shows_its_date_rules_and_each_players_line(
    client, club, season, table
):
    club.ranking_best_n = 18
    club.save()
    closed_night(season, table, day=10)
    published = ranking_publish(season)

    response = client.get(season_url(season))

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Classement 2024</h1>" in page
    published_on = timezone.localtime(published.published_at)
    assert f"Publié le {published_on.day} " in page
    assert str(published_on.year) in page
    assert "Les 18 meilleures soirées de chaque joueur comptent." in page
    assert "Anne Dupont" in page
    assert reverse("player", args=[season.club.slug, table[0].pk]) in page
    for fmt in ("csv", "csv-tableur", "xlsx"):
        assert export_url(season, fmt) in page
    assert ">CSV (tableur)</a>" in page and ">CSV (standard)</a>" in page
    assert "data-print" in page
    assert 'href="/static/css/ranking.css"' in page


def test_players_tied_are_shown_with_the_same_rank_and_an_equals_sign(client, club, season, table):
    others = PlayerFactory.create_batch(4, club=club)
    # Two tables: both seat-1 players win their poule, so they share the first place.
    closed_night(season, [*table, *others], day=10)
    ranking_publish(season)

    page = client.get(season_url(season)).content.decode()

    assert page.count('1&nbsp;<abbr title="ex aequo">=</abbr>') == 2
    assert page.count('3&nbsp;<abbr title="ex aequo">=</abbr>') == 6


def test_players_with_fewer_nights_than_the_minimum_are_listed_apart(
    client, club, season, table, anne
):
    club.ranking_min_tournaments = 2
    club.save()
    closed_night(season, table, day=10)
    closed_night(season, [anne, *PlayerFactory.create_batch(3, club=club)], day=17)
    ranking_publish(season)

    page = client.get(season_url(season)).content.decode()

    assert "Classé à partir de 2 soirées jouées." in page
    ranked, apart = page.split("Pas encore classés (trop peu de soirées)")
    assert "Anne Dupont" in ranked
    assert "Bruno Lemaire" in apart
    assert "Bruno Lemaire" not in ranked


def test_the_latest_publication_of_a_season_is_the_one_shown(client, club, season, table, bruno):
    closed_night(season, table, day=10)
    ranking_publish(season)
    closed_night(season, [bruno, *PlayerFactory.create_batch(3, club=club)], day=17)
    latest = ranking_publish(season)

    page = client.get(season_url(season)).content.decode()

    assert "2 soirées" in page
    assert RankingSnapshot.objects.filter(season=season).latest_published().get() == latest


def test_a_season_chip_leads_to_each_published_season_only(client, club, table):
    season_2023 = SeasonFactory(club=club, year=2023)
    season_2024 = SeasonFactory(club=club, year=2024)
    unpublished = SeasonFactory(club=club, year=2025)
    for season in (season_2023, season_2024):
        closed_night(season, table, day=10)
        ranking_publish(season)
    played_season(unpublished, table, tournaments=1)

    page = client.get(season_url(season_2024)).content.decode()

    assert f'href="{season_url(season_2023)}"' in page
    assert f'href="{season_url(season_2024)}" class="chip current"' in page
    assert season_url(unpublished) not in page


def test_an_unknown_season_or_club_is_not_found(client, season, published):
    assert client.get(reverse("ranking-season", args=[season.club.slug, "1999"])).status_code == 404
    assert client.get(reverse("ranking-season", args=["no-such-club", "2024"])).status_code == 404
    assert client.get(reverse("ranking", args=["no-such-club"])).status_code == 404


# The current season --------------------------------------------------------------------------


def test_the_current_ranking_is_the_one_of_the_season_covering_today(client, club, table):
    today = timezone.localdate()
    past = SeasonFactory(club=club, year=today.year - 2)
    current = SeasonFactory(
        club=club,
        name="en cours",
        start=today - datetime.timedelta(days=30),
        end=today + datetime.timedelta(days=30),
    )
    # A later season planned ahead is not the current one.
    SeasonFactory(club=club, year=today.year + 3)
    for season in (past, current):
        closed_night(season, table, day=1)
        ranking_publish(season)

    page = client.get(reverse("ranking", args=[club.slug])).content.decode()

    assert "<h1>Classement en cours</h1>" in page
    assert "Anne Dupont" in page


def test_without_a_season_covering_today_the_current_ranking_is_the_latest_season(
    client, club, table
):
    for year in (2022, 2023):
        season = SeasonFactory(club=club, year=year)
        closed_night(season, table, day=1)
        ranking_publish(season)

    page = client.get(reverse("ranking", args=[club.slug])).content.decode()

    assert "<h1>Classement 2023</h1>" in page


def test_the_current_season_not_yet_published_says_so_and_links_to_the_latest_published(
    client, club, table
):
    season_2023 = SeasonFactory(club=club, year=2023)
    closed_night(season_2023, table, day=1)
    ranking_publish(season_2023)
    season_2024 = SeasonFactory(club=club, year=2024)
    played_season(season_2024, table, tournaments=2)

    response = client.get(reverse("ranking", args=[club.slug]))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Le classement 2024 n'est pas encore publié." in page
    assert f'href="{season_url(season_2023)}"' in page
    assert reverse("ranking-archive", args=[club.slug]) in page
    assert "Anne Dupont" not in page
    # No chip leads the public to the unpublished season's page (a 404 for them).
    assert season_url(season_2024) not in page


def test_a_club_without_seasons_has_an_empty_ranking_page(client, club):
    response = client.get(reverse("ranking", args=[club.slug]))

    assert response.status_code == 200
    assert "Pas encore de saison." in response.content.decode()


# Unpublished rankings ------------------------------------------------------------------------


@pytest.mark.parametrize("persona", [None, "outsider", "member", "scorer"])
def test_an_unpublished_ranking_is_invisible_to_all_but_club_admins(
    client, request, season, table, persona
):
    played_season(season, table, tournaments=2)
    if persona:
        client.force_login(request.getfixturevalue(persona))

    season_page = client.get(season_url(season))
    current_page = client.get(reverse("ranking", args=[season.club.slug])).content.decode()

    assert season_page.status_code == 404
    assert client.get(export_url(season, "csv")).status_code == 404
    assert "n'est pas encore publié" in current_page
    assert "Anne Dupont" not in current_page
    assert "provisoire" not in current_page
    assert "Publier le classement" not in current_page


def test_a_club_admin_sees_the_provisional_ranking_and_the_publish_button(
    client, season, table, club_admin
):
    live = played_season(season, table, tournaments=2)
    client.force_login(club_admin)

    response = client.get(season_url(season))

    assert response.status_code == 200
    page = response.content.decode()
    assert "n'est pas encore publié" in page
    assert f"provisoire, calculé le {timezone.localtime(live.computed_at).day}" in page
    assert "Anne Dupont" in page
    assert f'action="{season_url(season, "ranking-publish")}"' in page
    assert "Publier le classement" in page


def test_a_club_admin_sees_both_the_published_and_the_newer_provisional_ranking(
    client, club, season, table, published, club_admin
):
    played_season(season, [*PlayerFactory.create_batch(3, club=club), table[1]], tournaments=1)
    client.force_login(club_admin)

    page = client.get(season_url(season)).content.decode()

    published_part, provisional_part = page.split("Classement provisoire", 1)
    assert "1 soirée" in published_part
    assert "2 soirées" in provisional_part


# Publishing ----------------------------------------------------------------------------------


def test_publishing_freezes_the_ranking_later_nights_change_only_the_live_one(
    client, season, table, anne, bruno, club_admin, django_capture_on_commit_callbacks
):
    played_season(season, table, tournaments=1)
    client.force_login(club_admin)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(season_url(season, "ranking-publish"))

    assert response.status_code == 302
    assert response["Location"] == season_url(season)
    frozen = RankingSnapshot.objects.published().get(season=season)
    assert frozen.published_at is not None
    frozen_lines = list(frozen.lines.values_list("player_id", "rank", "tournament_points"))
    assert (anne.pk, 1, 5) in frozen_lines

    # Bruno wins the next night; the live ranking follows, the published one does not.
    closed_night(season, [bruno, anne, *table[2:]], day=20)
    live = season_ranking_update(season)

    assert list(frozen.lines.values_list("player_id", "rank", "tournament_points")) == frozen_lines
    assert live.lines.get(player=anne).rank == 1
    assert live.lines.get(player=bruno).tied
    public = client.get(season_url(season)).content.decode().split("Classement provisoire")[0]
    assert "1 soirée" in public


def test_the_club_admin_is_told_the_ranking_is_published(
    client, season, table, club_admin, django_capture_on_commit_callbacks
):
    played_season(season, table, tournaments=1)
    client.force_login(club_admin)

    # The task runs once the request's work is committed (here: as the block ends), so the
    # request can only say it is under way; the page then shows it published.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(season_url(season, "ranking-publish"))
    page = client.get(response["Location"]).content.decode()

    assert "Publication du classement 2024 en cours." in page
    assert "Publié le" in page


def test_a_season_without_a_closed_night_is_not_published(
    client, season, club_admin, django_capture_on_commit_callbacks
):
    client.force_login(club_admin)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(season_url(season, "ranking-publish"), follow=True)

    assert "rien à publier" in response.content.decode()
    assert not RankingSnapshot.objects.published().exists()


@pytest.mark.parametrize("persona", ["member", "scorer", "outsider"])
def test_only_a_club_admin_may_publish_the_ranking(
    client, request, season, table, persona, django_capture_on_commit_callbacks
):
    played_season(season, table, tournaments=1)
    client.force_login(request.getfixturevalue(persona))

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(season_url(season, "ranking-publish"))

    assert response.status_code == (404 if persona == "outsider" else 403)
    assert not RankingSnapshot.objects.published().exists()


def test_the_public_is_sent_to_the_login_page_to_publish(
    client, season, table, django_capture_on_commit_callbacks
):
    played_season(season, table, tournaments=1)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(season_url(season, "ranking-publish"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not RankingSnapshot.objects.published().exists()


def test_a_ranking_is_published_only_by_a_post(client, season, table, club_admin):
    played_season(season, table, tournaments=1)
    client.force_login(club_admin)

    response = client.get(season_url(season, "ranking-publish"))

    assert response.status_code == 405
    assert not RankingSnapshot.objects.published().exists()


def test_a_club_admin_of_another_club_may_not_publish(client, season, table):
    client.force_login(persona(ClubFactory(name="Whist Club de Namur"), "namur", "admin"))
    played_season(season, table, tournaments=1)

    assert client.post(season_url(season, "ranking-publish")).status_code == 404
    assert not RankingSnapshot.objects.published().exists()


# The archive ---------------------------------------------------------------------------------


def test_the_archive_lists_the_published_seasons_newest_first_with_their_winners(
    client, club, table, anne, bruno
):
    for year, winner in ((2022, anne), (2023, bruno)):
        season = SeasonFactory(club=club, year=year)
        seats = [winner, *[p for p in table if p != winner]]
        closed_night(season, seats, day=1)
        closed_night(season, seats, day=8)
        ranking_publish(season)
    played_season(SeasonFactory(club=club, year=2024), table, tournaments=1)

    page = client.get(reverse("ranking-archive", args=[club.slug])).content.decode()

    assert "Classement 2024" not in page
    newest, oldest = page.split("Classement 2023")[1].split("Classement 2022")
    assert "Bruno Lemaire" in newest
    assert "Anne Dupont" in oldest
    published_on = RankingSnapshot.objects.published().latest("published_at").published_at
    assert timezone.localtime(published_on).strftime("%d/%m/%Y") in newest


def test_the_archive_of_a_club_that_published_nothing_says_so(client, club):
    page = client.get(reverse("ranking-archive", args=[club.slug])).content.decode()

    assert "Le club n'a encore publié aucun classement." in page


# Exports -------------------------------------------------------------------------------------


def test_the_spreadsheets_csv_has_the_header_and_one_row_per_player(
    client, season, table, published
):
    response = client.get(export_url(season, "csv-tableur"))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="classement-rcwhist-2024-tableur.csv"' in response["Content-Disposition"]
    assert response.content.startswith("\ufeffRang;Joueur;".encode())
    rows = csv_rows(response)
    assert rows[0] == HEADER
    assert rows[1] == ["1", "Anne Dupont", "1", "1", "1", "5", "9"]
    assert sorted(row[1] for row in rows[2:]) == sorted(p.display_name for p in table[1:])
    assert all(row[0] == "2" and row[5] == "0" and row[6] == "-3" for row in rows[2:])


def test_the_plain_csv_is_read_by_pandas_with_its_defaults(client, season, table, published):
    response = client.get(export_url(season, "csv"))

    assert 'filename="classement-rcwhist-2024.csv"' in response["Content-Disposition"]
    assert response.content.startswith(b"Rang,Joueur,")  # no BOM
    frame = pandas.read_csv(io.BytesIO(response.content))
    assert list(frame.columns) == HEADER
    assert frame.iloc[0].tolist() == [1, "Anne Dupont", 1, 1, 1, 5, 9]
    assert frame["Points de jeu"].dtype.kind == "i"
    assert len(frame) == len(table)


def test_the_excel_export_has_the_same_rows_with_numbers_as_numbers(
    client, season, table, published
):
    response = client.get(export_url(season, "xlsx"))

    assert response.status_code == 200
    assert 'filename="classement-rcwhist-2024.xlsx"' in response["Content-Disposition"]
    rows = xlsx_rows(response)
    assert rows[0] == HEADER
    assert rows[1] == [1, "Anne Dupont", 1, 1, 1, 5, 9]
    assert len(rows) == 1 + len(table)


def test_players_not_yet_ranked_are_exported_without_a_rank(client, club, season, table, anne):
    club.ranking_min_tournaments = 2
    club.save()
    closed_night(season, table, day=1)
    closed_night(season, [anne, *PlayerFactory.create_batch(3, club=club)], day=8)
    ranking_publish(season)

    rows = csv_rows(client.get(export_url(season, "csv-tableur")))

    assert rows[1][:2] == ["1", "Anne Dupont"]
    assert rows[-1][0] == ""


def test_an_unknown_export_format_is_not_found(client, season, published):
    assert client.get(export_url(season, "pdf")).status_code == 404


def test_an_unpublished_ranking_has_no_export(client, season, table, club_admin):
    played_season(season, table, tournaments=1)
    client.force_login(club_admin)

    assert client.get(export_url(season, "csv")).status_code == 404
    assert client.get(export_url(season, "xlsx")).status_code == 404


# Initials ------------------------------------------------------------------------------------


def test_a_member_who_chose_initials_appears_under_them_on_every_ranking_page_and_export(
    client, club, season, shy, bruno
):
    closed_night(season, [shy, bruno, *PlayerFactory.create_batch(2, club=club)], day=3)
    ranking_publish(season)
    pages = [
        client.get(season_url(season)).content.decode(),
        client.get(reverse("ranking", args=[club.slug])).content.decode(),
        client.get(reverse("ranking-archive", args=[club.slug])).content.decode(),
    ]
    csv_text = "".join(
        client.get(export_url(season, fmt)).content.decode("utf-8-sig")
        for fmt in ("csv", "csv-tableur")
    )
    xlsx_cells = [
        str(cell) for row in xlsx_rows(client.get(export_url(season, "xlsx"))) for cell in row
    ]

    for text in [*pages, csv_text, " ".join(xlsx_cells)]:
        assert "G.V." in text
        assert "Vandenberghe" not in text
        assert "Géraldine" not in text
    assert "G.V." in xlsx_cells


# Queries -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, expected", [(None, RANKING_PAGE_QUERIES), ("club_admin", RANKING_PAGE_ADMIN_QUERIES)]
)
@pytest.mark.parametrize("players, tournaments", [(8, 2), (32, 6)])
def test_the_ranking_pages_need_as_many_queries_for_32_players_and_6_nights_as_for_8_and_2(
    client,
    request,
    club,
    season,
    persona,
    expected,
    players,
    tournaments,
    django_assert_num_queries,
):
    played_season(season, PlayerFactory.create_batch(players, club=club), tournaments)
    ranking_publish(season)
    season_ranking_update(season)
    if persona:
        client.force_login(request.getfixturevalue(persona))

    with django_assert_num_queries(expected):
        season_page = client.get(season_url(season))
    with django_assert_num_queries(expected):
        current_page = client.get(reverse("ranking", args=[club.slug]))

    links = season_page.content.decode().count('href="/clubs/rcwhist/joueurs/')
    assert links == players * (2 if persona else 1)
    assert "<h1>Classement 2024</h1>" in current_page.content.decode()


@pytest.mark.parametrize("seasons", [1, 6])
def test_the_archive_needs_as_many_queries_for_6_seasons_as_for_1(
    client, club, table, seasons, django_assert_num_queries
):
    for year in range(2020, 2020 + seasons):
        season = SeasonFactory(club=club, year=year)
        closed_night(season, table, day=1)
        ranking_publish(season)

    with django_assert_num_queries(ARCHIVE_QUERIES):
        page = client.get(reverse("ranking-archive", args=[club.slug])).content.decode()

    assert page.count("Anne Dupont") == seasons
