"""An imported season honest about what it lacks: what its table did not give (game points,
nights won, a blank nights cell) is unknown, "—" on the ranking, the archive and the player
page, null in the API, an empty cell in the exports; never a 0. One of its lines is corrected
by the club admin without importing the season again, and the published pages show it at once.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook

from club.models import Club, Membership, Player
from scoring.models import RankingLine, RankingSnapshot
from scoring.services import (
    LineFigures,
    imported_line_correct,
    ranking_publish,
)
from tests.club.views.test_players import PLAYER_PAGE_QUERIES, table_rows
from tests.club.views.test_ranking_import import import_directly
from tests.club.views.test_rankings import ARCHIVE_QUERIES, RANKING_PAGE_QUERIES, closed_night
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory

UNKNOWN = '<abbr class="unknown" title="Inconnu : le classement importé ne le donne pas">—</abbr>'


def import_season(club: Club, year: int, rows: list[list[str]], nights: bool = True):
    """The table imported as the club admin does: each name the club's player of that name,
    else a new player."""
    return import_directly(club, year, rows, nights=nights)


def ranking_table(size: int, nights: str = "12") -> list[list[str]]:
    rows = [["Rang", "Joueur", "Points", "Soirées"]]
    return rows + [[str(i), f"Joueur {i:02d}", str(100 - i), nights] for i in range(1, size + 1)]


@pytest.fixture
def imported(club) -> RankingSnapshot:
    """2015: five lines, the third's nights cell blank."""
    rows = ranking_table(5)
    rows[3][3] = ""
    return import_season(club, 2015, rows)


def test_what_the_table_does_not_give_is_stored_unknown_never_zero(imported):
    lines = list(imported.lines.order_by("position"))
    assert imported.imported_columns == ["rank", "name", "points", "nights"]
    assert imported.tournaments is None
    assert {(line.game_points, line.tournaments_won) for line in lines} == {(None, None)}
    assert [line.tournaments_played for line in lines] == [12, 12, None, 12, 12]
    assert [line.tournaments_counted for line in lines] == [12, 12, None, 12, 12]


def test_a_table_without_its_nights_column_keeps_the_nights_unknown(club):
    snapshot = import_season(club, 2016, ranking_table(3), nights=False)
    assert snapshot.imported_columns == ["rank", "name", "points"]
    assert set(snapshot.lines.values_list("tournaments_played", flat=True)) == {None}


def test_the_ranking_the_archive_and_the_player_page_show_unknown_as_a_dash(client, club, imported):
    season = client.get(reverse("ranking-season", args=[club.slug, "2015"])).content.decode()
    first = table_rows(season, "ranking")[0]
    assert first == ["1", "Joueur 01", "99", "—", "12", "12", "—"]
    assert table_rows(season, "ranking")[2][4:6] == ["—", "—"]
    assert UNKNOWN in season

    archive = client.get(reverse("ranking-archive", args=[club.slug])).content.decode()
    assert table_rows(archive, "archive")[0][2] == "—"

    third = RankingLine.objects.get(snapshot=imported, position=3).player
    page = client.get(reverse("player", args=[club.slug, third.pk])).content.decode()
    assert table_rows(page, "totals")[0] == ["2015 importé", "3", "97", "—", "—", "—", "—"]


def test_the_api_says_null_and_its_schema_says_nullable(client, club, imported):
    ranking = client.get(f"/api/v1/clubs/{club.slug}/seasons/2015/ranking/").json()
    assert ranking["tournaments"] is None
    first, third = ranking["lines"][0], ranking["lines"][2]
    assert (first["game_points"], first["tournaments_won"]) == (None, None)
    assert first["tournaments_played"] == 12
    assert (third["tournaments_played"], third["tournaments_counted"]) == (None, None)

    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    line = schema["components"]["schemas"]["RankingLine"]["properties"]
    assert all(line[key].get("nullable") for key in ("game_points", "tournaments_won"))
    # A federation's lines are computed from nights: every figure known.
    federation = schema["components"]["schemas"]["FederationRankingLine"]["properties"]
    assert not federation["game_points"].get("nullable")


def test_the_exports_leave_an_unknown_cell_empty(client, club, imported):
    for fmt, delimiter in (("csv-tableur", ";"), ("csv", ",")):
        url = reverse("ranking-export", args=[club.slug, "2015", fmt])
        text = client.get(url).content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        assert rows[1] == ["1", "Joueur 01", "12", "12", "", "99", ""]
        assert rows[3][2:5] == ["", "", ""]
    url = reverse("ranking-export", args=[club.slug, "2015", "xlsx"])
    sheet = load_workbook(io.BytesIO(client.get(url).content)).active
    assert [cell.value for cell in sheet[2]] == [1, "Joueur 01", 12, 12, None, 99, None]


# Query counts: an imported season's pages read no more than a computed one's -----------------


@pytest.mark.parametrize("size", [4, 30])
def test_an_imported_seasons_pages_read_as_many_queries_for_30_lines_as_for_4(
    client, club, size, django_assert_num_queries
):
    import_season(club, 2015, ranking_table(size))
    import_season(club, 2016, ranking_table(size))
    player = RankingLine.objects.filter(snapshot__season__name="2016").first().player
    with django_assert_num_queries(RANKING_PAGE_QUERIES):
        page = client.get(reverse("ranking-season", args=[club.slug, "2016"]))
    assert len(table_rows(page.content.decode(), "ranking")) == size
    with django_assert_num_queries(ARCHIVE_QUERIES):
        client.get(reverse("ranking-archive", args=[club.slug]))
    # The player page without nights: no season's history to read (one query fewer).
    with django_assert_num_queries(PLAYER_PAGE_QUERIES - 1):
        page = client.get(reverse("player", args=[club.slug, player.pk]))
    assert len(table_rows(page.content.decode(), "totals")) == 2


# One line corrected -------------------------------------------------------------------------


def line_at(snapshot: RankingSnapshot, position: int) -> RankingLine:
    return RankingLine.objects.select_related("player").get(snapshot=snapshot, position=position)


def line_url(club, line) -> str:
    return reverse("imported-line", args=[club.slug, line.snapshot.season.slug, line.pk])


def test_the_club_admin_corrects_a_line_and_the_ranking_shows_it_at_once(
    client, club, club_admin, imported
):
    season_url = reverse("ranking-season", args=[club.slug, "2015"])
    assert table_rows(client.get(season_url).content.decode(), "ranking")[3][0] == "4"  # cached
    fourth = line_at(imported, 4)
    client.force_login(club_admin)
    form = client.get(line_url(club, fourth))
    assert form.context["form"].initial["tournament_points"] == "96"

    answer = client.post(
        line_url(club, fourth),
        {
            "rank": "2",
            "player": fourth.player_id,
            "tournament_points": "98,5",
            "game_points": "1234",
            "tournaments_played": "14",
            "tournaments_won": "3",
        },
    )

    assert answer.status_code == 302
    assert answer["Location"] == reverse("imported-lines", args=[club.slug, "2015"])
    fourth.refresh_from_db()
    assert (fourth.rank, fourth.position, fourth.tied) == (2, 3, True)
    assert fourth.tournament_points == Fraction(197, 2)
    assert (fourth.game_points, fourth.tournaments_played, fourth.tournaments_counted) == (
        1234,
        14,
        14,
    )
    assert [(line.rank, line.tied) for line in imported.lines.order_by("position")] == [
        (1, False),
        (2, True),
        (2, True),
        (3, False),
        (5, False),
    ]
    client.logout()
    ranking = table_rows(client.get(season_url).content.decode(), "ranking")
    assert ranking[2] == ["2 =", "Joueur 04", "98,50", "1234", "14", "14", "3"]


def test_a_line_given_to_another_player_of_the_club_moves_to_his_page(
    client, club, club_admin, club_members, imported
):
    anne = club_members[0]
    first = line_at(imported, 1)
    imported_line_correct(first, LineFigures(rank=1, player=anne, tournament_points=Fraction(99)))
    first.refresh_from_db()
    assert first.player == anne and first.tournaments_played is None
    page = client.get(reverse("player", args=[club.slug, anne.pk])).content.decode()
    assert table_rows(page, "totals")[0][:3] == ["2015 importé", "1", "99"]


def test_a_correction_that_cannot_be_is_refused_in_words_and_nothing_changes(
    client, club, club_admin, imported
):
    fourth, fifth = line_at(imported, 4), line_at(imported, 5)
    client.force_login(club_admin)
    answer = client.post(
        line_url(club, fourth),
        {
            "rank": "4",
            "player": fifth.player_id,
            "tournament_points": "96",
            "tournaments_played": "3",
            "tournaments_won": "5",
        },
    )
    assert answer.status_code == 200
    assert answer.context["form"].non_field_errors() == [
        "5 soirées gagnées sur 3 jouées : c'est impossible.",
        "Joueur 05 a déjà sa ligne dans ce classement.",
    ]
    answer = client.post(
        line_url(club, fourth),
        {"rank": "0", "player": fourth.player_id, "tournament_points": "douze"},
    )
    assert (
        "« douze » n'est pas un nombre de points."
        in answer.context["form"].errors["tournament_points"]
    )
    fourth.refresh_from_db()
    assert (fourth.rank, fourth.player_id, fourth.tournaments_played) == (4, fourth.player_id, 12)
    assert fourth.tournaments_won is None


def test_a_player_of_another_club_or_a_computed_ranking_is_refused_in_words(club, season, imported):
    stranger = PlayerFactory(club=ClubFactory(name="Whist Club Liège"), display_name="Léon")
    with pytest.raises(ValidationError) as refused:
        imported_line_correct(
            line_at(imported, 1), LineFigures(1, stranger, tournament_points=Fraction(1))
        )
    assert refused.value.messages == ["Léon n'est pas un joueur du club."]

    computed = ranking_publish_of(season, PlayerFactory.create_batch(4, club=club))
    with pytest.raises(ValidationError) as refused:
        imported_line_correct(computed, LineFigures(1, computed.player, Fraction(1)))
    assert "Seul un classement importé se corrige ligne par ligne" in refused.value.messages[0]


def ranking_publish_of(season, players) -> RankingLine:
    closed_night(season, players, day=1)
    ranking_publish(season)
    return RankingLine.objects.filter(snapshot__season=season).first()


@pytest.mark.parametrize(
    "who, status", [("member", 403), ("other_club_admin", 404), ("anonymous", 302)]
)
def test_only_the_club_admin_corrects_a_line(client, club, member, imported, who, status):
    users = {
        "member": member,
        "other_club_admin": persona(
            ClubFactory(name="Whist Club Namur"), "admin-namur", Membership.Role.ADMIN
        ),
        "anonymous": None,
    }
    if users[who]:
        client.force_login(users[who])
    first = line_at(imported, 1)
    pages = [line_url(club, first), reverse("imported-lines", args=[club.slug, "2015"])]
    for page in pages:
        assert client.get(page).status_code == status
    answer = client.post(
        pages[0], {"rank": "9", "player": first.player_id, "tournament_points": "1"}
    )
    assert answer.status_code == status
    first.refresh_from_db()
    assert first.rank == 1
    assert Player.objects.filter(pk=first.player_id).exists()
