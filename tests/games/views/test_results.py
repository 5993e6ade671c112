"""A night's results page, its standings exports and the club-night file: who sees them when,
what they show, public names, and constant query counts."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from fractions import Fraction
from html import escape

import pandas
import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from club.models import Player
from club.names import PUBLIC, name_shown
from games import services
from games.dealforms import describe_deal, short_deal
from games.models import Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.engine.games import mort
from scoring.engine.night import read_night
from scoring.models import PouleStanding, TournamentStanding
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}
PASS = {"contract": "pass"}
PAGES = ("results", "results-csv", "results-csv-tableur", "results-xlsx", "tournament-file")


def url(name: str, tournament: Tournament, **kwargs) -> str:
    if name.startswith("results-"):
        kwargs["fmt"] = name.removeprefix("results-")
        name = "results-export"
    return reverse(
        f"games:{name}", kwargs={"slug": tournament.club.slug, "pk": tournament.pk, **kwargs}
    )


def log_in(client, request, persona: str | None) -> None:
    if persona:
        client.force_login(request.getfixturevalue(persona))


def table_of(tournament: Tournament, size: int):
    return next(p for p in tournament.poules.filter(round=1) if p.seats.count() == size)


def compact(html: str) -> str:
    """The page without the indentation between tags, to look for a table row in it."""
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html))


@pytest.fixture
def published_night(imported_night: Tournament) -> Tournament:
    return scoring_services.tournament_publish(imported_night)


def played_tournament(club, season, point_table, *, players: int, rounds: int, day: int):
    """A published night of ``players`` new members, ``rounds`` rounds of three deals."""
    tournament = services.tournament_create(
        club=club,
        season=season,
        date=datetime.date(2024, 5, day),
        name=f"Soirée du {day} mai",
        game="belgian_whist",
        point_table=point_table,
        rounds=rounds,
    )
    services.presence_set(tournament, PlayerFactory.create_batch(players, club=club))
    for number in range(1, rounds + 1):
        scoring_services.round_draw(tournament, number, seed=number)
        for poule in tournament.poules.filter(round=number):
            scoring_services.deals_record(poule, [EMBALLAGE, PASS, SOLO])
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    return scoring_services.tournament_publish(tournament)


# --------------------------------------------------------------------------------------------
# Who sees what, when


@pytest.mark.parametrize("persona", [None, "outsider", "member"])
def test_a_closed_night_not_yet_published_is_refused_to_the_public_outsiders_and_members(
    client, imported_night, persona, request
):
    log_in(client, request, persona)
    # A member is told he may not; the public and other clubs learn nothing of the night.
    refused = 403 if persona == "member" else 404
    for page in PAGES:
        assert client.get(url(page, imported_night)).status_code == refused, page


@pytest.mark.parametrize("persona", ["scorer", "club_admin"])
def test_the_clubs_scorers_and_admins_see_a_night_before_it_is_published(
    client, imported_night, persona, request
):
    log_in(client, request, persona)
    for page in PAGES:
        assert client.get(url(page, imported_night)).status_code == 200, page


@pytest.mark.parametrize("persona", [None, "outsider", "member", "scorer"])
def test_everybody_sees_a_published_nights_results_exports_and_file(
    client, published_night, persona, request
):
    log_in(client, request, persona)
    for page in PAGES:
        assert client.get(url(page, published_night)).status_code == 200, page


def test_a_running_nights_file_is_refused_to_a_member_but_given_to_a_scorer(
    client, running_night, member, scorer
):
    scoring_services.deals_record(table_of(running_night, 4), [EMBALLAGE, PASS, SOLO])
    scoring_services.deal_record(table_of(running_night, 5), EMBALLAGE)
    assert client.get(url("tournament-file", running_night)).status_code == 404
    client.force_login(member)
    assert client.get(url("tournament-file", running_night)).status_code == 403
    client.force_login(scorer)
    response = client.get(url("tournament-file", running_night))
    assert response.status_code == 200
    document = json.loads(response.content.decode("utf-8"))
    assert document["format"] == "club-night-result/1"
    scored = read_night(document)  # the engine reads it back without a complaint
    assert len(scored.poules) == 2


def test_an_unknown_export_format_is_not_found(client, published_night, scorer):
    client.force_login(scorer)
    path = reverse(
        "games:results-export",
        kwargs={"slug": published_night.club.slug, "pk": published_night.pk, "fmt": "pdf"},
    )
    assert client.get(path).status_code == 404


# --------------------------------------------------------------------------------------------
# What the page shows


def test_the_night_standings_show_ties_points_and_link_each_player_to_his_page(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    # Seats 2 and 4 make their emballage together: tied first of the night.
    scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    client.force_login(scorer)
    page = compact(client.get(url("results", running_night)).content.decode())
    for number in (2, 4):
        player = poule.seats.get(number=number).player
        line = TournamentStanding.objects.get(tournament=running_night, player=player)
        link = reverse("player", kwargs={"slug": running_night.club.slug, "pk": player.pk})
        assert (line.rank, line.tied) == (1, True)
        assert (
            f'<td>1=</td><td><a href="{link}">{escape(player.display_name)}</a></td>'
            f'<td class="num">{line.tournament_points}</td>'
            f'<td class="num">{line.game_points}</td><td class="num">1/1</td>'
        ) in page


def test_every_poule_shows_its_players_its_deals_with_their_points_and_its_standings(
    client, published_night
):
    page = compact(client.get(url("results", published_night)).content.decode())
    poules = published_night.poules.prefetch_related("seats__player", "deals")
    assert poules.count() == 6
    point_table = published_night.point_table.engine_table()
    for poule in poules:
        start = page.index(f'id="tour-{poule.round}-table-{poule.table}"')
        article = page[start : page.index("</article>", start)]
        seats = sorted(poule.seats.all(), key=lambda seat: seat.number)
        names = {str(seat.number): seat.player.display_name for seat in seats}
        assert ", ".join(f"{n}. {escape(name)}" for n, name in names.items()) in article
        played = 0  # a pass takes no number, as on the phone's sheet
        for deal in sorted(poule.deals.all(), key=lambda deal: deal.position):
            played += deal.counted
            sits_out = mort(published_night.game, len(seats), deal.dealer - 1)
            # The declarers' marks, the dealer's • and the mort's –, as on the phone.
            code, marks = short_deal(published_night.game, deal.data, point_table)
            cells = "".join(
                '<td class="num pts{}{}{}">{}</td>'.format(
                    f" {marks[str(seat + 1)]}" if str(seat + 1) in marks else "",
                    " dealer" if seat == deal.dealer - 1 else "",
                    " mort" if seat == sits_out else "",
                    "–" if seat == sits_out else points,
                )
                for seat, points in enumerate(deal.points)
            )
            text = escape(describe_deal(published_night.game, deal.data, names))
            number = played if deal.counted else "–"
            shown = f'<td><b class="code">{escape(code)}</b> {text}</td>'
            row = f'<td class="num">{number}</td>{shown}{cells}</tr>'
            assert row in article
        for line in PouleStanding.objects.filter(poule=poule).select_related("player"):
            rank = f"{line.rank}{'=' if line.tied else ''}"
            assert f"<tr><td>{rank}</td><td>{escape(line.player.display_name)}</td>" in article


def test_a_poule_standing_shows_its_ties_and_shared_points_as_the_other_pages_do(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    # Seats 2 and 4 make their emballage: tied first (4 points each), seats 1 and 3 tied third.
    scoring_services.deal_record(poule, EMBALLAGE)
    # Shared points of places 3 and 4 with positive game points (a table of the freewhist kind
    # would give them): how the page writes a fraction is what is looked at.
    PouleStanding.objects.filter(poule=poule, seat__in=(1, 3)).update(
        tournament_points=Fraction(1, 2)
    )
    client.force_login(scorer)
    page = compact(client.get(url("results", running_night)).content.decode())
    start = page.index(f'id="tour-{poule.round}-table-{poule.table}"')
    article = page[start : page.index("</article>", start)]
    for number, rank, shown in (
        (2, "1=", "4"),
        (4, "1=", "4"),
        (1, "3=", "0,50"),
        (3, "3=", "0,50"),
    ):
        line = PouleStanding.objects.select_related("player").get(poule=poule, seat=number)
        name = escape(line.player.display_name)
        game_points = str(line.game_points).replace("-", "\u2212")  # the minus sign shown
        row = f'<tr><td>{rank}</td><td>{name}</td><td class="num">{game_points}</td>'
        assert f'{row}<td class="num">{shown}</td></tr>' in article


def test_a_poule_without_deals_says_so_across_its_columns(client, running_night, scorer):
    played, waiting = table_of(running_night, 4), table_of(running_night, 5)
    scoring_services.deal_record(played, EMBALLAGE)
    client.force_login(scorer)
    page = compact(client.get(url("results", running_night)).content.decode())
    start = page.index(f'id="tour-{waiting.round}-table-{waiting.table}"')
    article = page[start : page.index("</article>", start)]
    # Number, deal, then one column per seat: 5 players.
    assert '<td colspan="7" class="meta">Aucune donne encore.</td>' in article
    assert "Classement de la poule" not in article


def test_a_deal_where_everybody_passed_is_shown_greyed_without_a_number_as_on_the_sheet(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    scoring_services.deals_record(poule, [EMBALLAGE, PASS, EMBALLAGE])
    client.force_login(scorer)
    page = compact(client.get(url("results", running_night)).content.decode())
    assert '<tr><td class="num">1</td>' in page
    assert '<tr class="passed"><td class="num">–</td>' in page
    assert '<tr><td class="num">2</td>' in page
    assert '<tr><td class="num">3</td>' not in page
    sheet = client.get(
        reverse("games:sheet", args=[poule.tournament.club.slug, poule.tournament.pk, poule.pk])
    )
    numbers = re.findall(r'<b class="n">([^<]+)</b>', sheet.content.decode())
    assert numbers == ["1", "–", "2"]


def test_a_member_who_chose_initials_appears_under_them_on_the_page_exports_and_public_file(
    client, imported_night
):
    player = TournamentStanding.objects.filter(tournament=imported_night).first().player
    player.public_name = Player.PublicName.INITIALS
    player.save()
    scoring_services.tournament_publish(imported_night)

    page = client.get(url("results", imported_night)).content.decode()
    exported_csv = client.get(url("results-csv", imported_night)).content.decode("utf-8-sig")
    workbook = load_workbook(io.BytesIO(client.get(url("results-xlsx", imported_night)).content))
    cells = [str(c) for row in workbook.active.iter_rows(values_only=True) for c in row]
    tournament_file = client.get(url("tournament-file", imported_night)).content.decode("utf-8")

    for shown in (page, exported_csv, "\n".join(cells), tournament_file):
        assert player.initials in shown
        assert player.display_name not in shown


def test_a_scorers_night_file_names_players_as_the_club_knows_them(client, published_night, scorer):
    player = TournamentStanding.objects.filter(tournament=published_night).first().player
    player.public_name = Player.PublicName.INITIALS
    player.save()
    client.force_login(scorer)
    document = json.loads(client.get(url("tournament-file", published_night)).content)
    assert player.display_name in document["players"]


def test_a_scorers_backup_of_a_night_restores_it_with_the_same_results(
    client, imported_night, scorer
):
    client.force_login(scorer)
    response = client.get(url("tournament-file", imported_night))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="soiree-2024-03-14-rcwhist.json"'
    )
    before = tournament_lines(imported_night)
    imported_night.delete()

    restored = tournament_import(json.loads(response.content.decode("utf-8")))

    assert tournament_lines(restored) == before
    assert restored.poules.count() == 6


def tournament_lines(tournament: Tournament) -> list[tuple]:
    return [
        (line.player.display_name, line.rank, line.tied, line.tournament_points, line.game_points)
        for line in TournamentStanding.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("rank", "player__display_name")
    ]


# --------------------------------------------------------------------------------------------
# Exports


def expected_rows(tournament: Tournament) -> list[list]:
    return [
        [
            line.rank,
            "=" if line.tied else "",
            name_shown(line.player, PUBLIC),
            line.tournament_points,
            line.game_points,
            line.poules_won,
            line.poules_played,
        ]
        for line in TournamentStanding.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("rank", "player__display_name")
    ]


def test_the_standings_for_a_spreadsheet_have_a_row_per_player_in_rank_order(
    client, published_night
):
    response = client.get(url("results-csv-tableur", published_night))
    assert response["Content-Disposition"] == (
        'attachment; filename="soiree-2024-03-14-rcwhist-tableur.csv"'
    )
    assert response.content.startswith("\ufeffDate;Rang;".encode())
    header, *rows = csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";")
    assert header == [
        "Date",
        "Rang",
        "Ex aequo",
        "Joueur",
        "Points de tournoi",
        "Points de jeu",
        "Poules gagnées",
        "Poules jouées",
    ]
    assert len(rows) == 9
    assert rows == [
        ["14/03/2024", *(csv_text(value) for value in row)]
        for row in expected_rows(published_night)
    ]


def test_the_plain_standings_csv_is_read_by_pandas_with_its_defaults(client, published_night):
    response = client.get(url("results-csv", published_night))
    assert response["Content-Disposition"] == 'attachment; filename="soiree-2024-03-14-rcwhist.csv"'
    assert response.content.startswith(b"Date,Rang,Ex aequo,Joueur,")  # no BOM, commas

    frame = pandas.read_csv(io.BytesIO(response.content))

    assert frame.columns[0] == "Date" and frame.columns[3] == "Joueur"
    assert set(frame["Date"]) == {"2024-03-14"}
    assert pandas.to_datetime(frame["Date"]).dt.date.tolist() == [datetime.date(2024, 3, 14)] * 9
    expected = expected_rows(published_night)
    assert frame["Joueur"].tolist() == [row[2] for row in expected]
    # Numbers as numbers (a shared 4/3 would be 1.33, not the text "1,33": test_exports.py).
    assert frame["Points de tournoi"].dtype.kind in "if"
    assert frame["Points de tournoi"].tolist() == pytest.approx(
        [float(row[3]) for row in expected], abs=0.005
    )
    assert frame["Points de jeu"].tolist() == [row[4] for row in expected]


def test_the_plain_deals_csv_is_read_by_pandas_with_the_nights_date_on_every_row(
    client, published_night
):
    response = client.get(url("deals-export", published_night, fmt="csv"))
    assert response["Content-Disposition"] == 'attachment; filename="donnes-2024-03-14-rcwhist.csv"'

    frame = pandas.read_csv(io.BytesIO(response.content))

    assert list(frame.columns[:5]) == ["Date", "Tour", "Table", "Donne", "Code"]
    assert len(frame) > 0 and set(frame["Date"]) == {"2024-03-14"}
    assert frame["Tour"].dtype.kind == "i"
    # The mort's « – » stays in the spreadsheets; here his cell is empty, the column numbers.
    assert frame["Points 1"].dtype.kind == "f" and frame["Points 1"].isna().any()
    assert "–" not in response.content.decode()


def csv_text(value) -> str:
    # Belgian spreadsheets: a decimal comma, two decimals when the points are not whole.
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.2f}".replace(".", ",")
    return str(value)


def test_the_standings_as_excel_have_the_same_rows_as_numbers(client, published_night):
    response = client.get(url("results-xlsx", published_night))
    assert response["Content-Disposition"] == (
        'attachment; filename="soiree-2024-03-14-rcwhist.xlsx"'
    )
    sheet = load_workbook(io.BytesIO(response.content)).active
    dates, *columns = zip(*sheet.iter_rows(values_only=True), strict=True)
    header, *rows = [list(row) for row in zip(*columns, strict=True)]
    assert header[:3] == ["Rang", "Ex aequo", "Joueur"]
    # The night's date as a date cell on every row, as Belgium writes it.
    assert dates[0] == "Date"
    assert {value.date() for value in dates[1:]} == {datetime.date(2024, 3, 14)}
    assert sheet["A2"].number_format == "DD/MM/YYYY"
    expected = expected_rows(published_night)
    assert [row[:3] + row[4:] for row in rows] == [
        [row[0], row[1] or None, row[2], *row[4:]] for row in expected
    ]
    for row, want in zip(rows, expected, strict=True):
        assert row[3] == pytest.approx(float(want[3]), abs=0.01)


# --------------------------------------------------------------------------------------------
# Links and query counts


def test_the_night_board_links_to_the_results_the_exports_and_the_night_file(
    client, published_night, scorer
):
    client.force_login(scorer)
    page = client.get(url("tournament", published_night)).content.decode()
    for name in PAGES:
        assert f'href="{url(name, published_night)}"' in page


def count_queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_results_page_and_exports_make_the_same_queries_for_a_small_or_a_big_night(
    client, club, season, point_table
):
    small = played_tournament(club, season, point_table, players=8, rounds=1, day=2)
    big = played_tournament(club, season, point_table, players=20, rounds=3, day=9)
    assert big.poules.count() == 15 and small.poules.count() == 2
    for page in ("results", "results-csv", "results-csv-tableur", "results-xlsx"):
        assert count_queries(client, url(page, small)) == count_queries(client, url(page, big))
    for fmt in ("csv", "csv-tableur", "xlsx"):
        small_deals, big_deals = (url("deals-export", night, fmt=fmt) for night in (small, big))
        assert count_queries(client, small_deals) == count_queries(client, big_deals)


def test_the_results_page_as_first_drawn_asks_four_queries(
    client, django_assert_num_queries, club, season, point_table
):
    """The night, its standings, its poules and their standings read with their seats, and
    its deals: neither the poules nor their standings on their own, nor a row a deal or a
    player."""
    night = played_tournament(club, season, point_table, players=20, rounds=3, day=9)
    page = url("results", night)
    caches["default"].clear()
    with django_assert_num_queries(4):
        assert client.get(page).status_code == 200
