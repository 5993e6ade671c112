"""A club's past published rankings imported by its club admin: the table read (CSV, Excel,
pasted), its columns chosen, every name matched (accents, case, initials; ambiguity shown),
stored as an archived season marked imported, and shown like any season."""

from __future__ import annotations

import datetime
import io
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import Workbook

from club.models import Membership, Player, Season
from club.name_matching import AMBIGUOUS, LIKE, NEW, SAME, name_matches
from club.table_reader.files import header_guess, table_from_csv, table_from_paste, table_read
from games.models import Tournament
from scoring.models import RankingLine, RankingSnapshot
from scoring.services import ranking_import, ranking_lines_read, ranking_publish_check
from tests.factories import PlayerFactory

YEARS = range(2010, 2020)
# The club's regulars, as its old site wrote them, season after season.
REGULARS = ["MAES Geneviève", "Jacobs Henri", "Isabelle Mertens", "J. Willems", "Claes Karine"]


def ranking_rows(year: int) -> list[list[str]]:
    """A season's table as the club published it: rank, name, points, nights, and a column
    the import ignores."""
    rows = [["Rang", "Joueur", "Points", "Soirées", "Remarque"]]
    for index, name in enumerate(REGULARS):
        rows.append([f"{index + 1}", name, f"{100 - 10 * index + year % 10},5", "20", ""])
    return rows


def csv_bytes(rows: list[list[str]]) -> bytes:
    return "\n".join(";".join(row) for row in rows).encode("utf-8")


def xlsx_bytes(rows: list[list[str]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(
            [
                int(cell) if cell.isdigit() else cell.replace(",", ".") if "," in cell else cell
                for cell in row
            ]
        )
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def import_through_pages(client, club, filename: str, data: bytes, season: str) -> None:
    answer = client.post(
        reverse("ranking-import", args=[club.slug]),
        {"file": SimpleUploadedFile(filename, data)},
    )
    assert answer.status_code == 302, answer.context["form"].errors
    columns = reverse("ranking-import-columns", args=[club.slug])
    page = client.get(columns)
    form = page.context["form"]
    # The header's words propose each column; the admin keeps them.
    assert [form.initial.get(k) for k in ("rank", "name", "points", "nights")] == [0, 1, 2, 3]
    answer = client.post(
        columns,
        {"header": "on", "season": season, "rank": 0, "name": 1, "points": 2, "nights": 3},
    )
    assert answer.status_code == 302, answer.context["form"].errors
    names = reverse("ranking-import-names", args=[club.slug])
    page = client.get(names)
    choices = {}
    for row in page.context["rows"]:
        choices[f"line-{row['line'].line}"] = row["selected"]
    answer = client.post(names, choices)
    assert answer.status_code == 302, answer.context["problems"]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_ten_season_archive_shows_in_the_archive_and_on_the_player_pages(
    client, club, club_admin, club_members, kind
):
    client.force_login(club_admin)
    for year in YEARS:
        rows = ranking_rows(year)
        data = csv_bytes(rows) if kind == "csv" else xlsx_bytes(rows)
        import_through_pages(client, club, f"classement-{year}.{kind}", data, str(year))

    snapshots = RankingSnapshot.objects.filter(season__club=club)
    assert snapshots.count() == 10 and all(s.imported and s.published_at for s in snapshots)
    archive = client.get(reverse("ranking-archive", args=[club.slug])).content.decode()
    for year in YEARS:
        assert f'Classement {year}</a> <span class="badge imported">importé</span>' in archive
    # "MAES Geneviève" is the club's Geneviève Maes: her page has ten seasons.
    genevieve = next(p for p in club_members if p.display_name == "Geneviève Maes")
    page = client.get(reverse("player", args=[club.slug, genevieve.pk]))
    assert [line.snapshot.season.name for line in page.context["totals"]] == [
        str(year) for year in reversed(YEARS)
    ]
    assert {line.rank for line in page.context["totals"]} == {1}
    assert page.context["totals"][0].tournament_points == Fraction(1095, 10)
    assert page.context["totals"][0].tournaments_played == 20
    # "J. Willems" is proposed as Jacques Willems (by his initial) and kept: no new player.
    jacques = Player.objects.get(display_name="Jacques Willems")
    assert RankingLine.objects.filter(player=jacques).count() == 10
    assert not Player.objects.filter(display_name="J. Willems").exists()
    season = client.get(reverse("ranking-season", args=[club.slug, "2015"])).content.decode()
    assert "Classement importé" in season


def test_the_api_says_a_season_and_its_ranking_are_imported(client, club, club_members):
    import_directly(club, 2012, ranking_rows(2012))
    seasons = client.get(f"/api/v1/clubs/{club.slug}/seasons/").json()
    season = seasons["results"][0] if isinstance(seasons, dict) else seasons[0]
    assert season["name"] == "2012" and season["imported"] is True
    ranking = client.get(f"/api/v1/clubs/{club.slug}/seasons/2012/ranking/").json()
    assert ranking["imported"] is True
    assert [line["player"]["name"] for line in ranking["lines"]][:2] == [
        "Geneviève Maes",
        "Henri Jacobs",
    ]


def import_directly(
    club, year: int, rows: list[list[str]], choices=None, nights: bool = True
) -> RankingSnapshot:
    columns = {"rank": 0, "name": 1, "points": 2, "nights": 3 if nights else None}
    lines = ranking_lines_read(rows, columns, header=True)
    players = list(Player.objects.in_club(club))
    matches = name_matches([line.name for line in lines], players)
    proposed = {
        line.line: (match.proposed.pk if match.proposed else "new")
        for line, match in zip(lines, matches, strict=True)
    }
    return ranking_import(
        club,
        str(year),
        datetime.date(year, 1, 1),
        datetime.date(year, 12, 31),
        lines,
        choices or proposed,
        [key for key, index in columns.items() if index is not None],
    )


# Name matching ------------------------------------------------------------------------------


def test_names_match_whatever_the_accents_the_case_the_order_and_the_initials(db):
    jean = PlayerFactory.build(display_name="Jean Dupont", pk=1)
    zoe = PlayerFactory.build(display_name="Zoé Lambert", pk=2)
    written = ["J. Dupont", "DUPONT Jean", "Dupont Jéan", "zoe LAMBERT", "Dupont J.", "Marc Vos"]
    kinds = [(m.kind, m.proposed) for m in name_matches(written, [jean, zoe])]
    assert kinds == [
        (LIKE, jean),
        (SAME, jean),
        (SAME, jean),
        (SAME, zoe),
        (LIKE, jean),
        (NEW, None),
    ]


def test_a_name_two_players_could_have_is_shown_ambiguous_and_never_chosen(db):
    jean = PlayerFactory.build(display_name="Jean Dupont", pk=1)
    jacques = PlayerFactory.build(display_name="Jacques Dupont", pk=2)
    match = name_matches(["J. Dupont"], [jean, jacques])[0]
    assert match.kind == AMBIGUOUS and match.proposed is None
    assert set(match.candidates) == {jean, jacques}


def test_the_review_page_asks_for_the_ambiguous_name_and_refuses_without_a_choice(
    client, club, club_admin
):
    PlayerFactory(display_name="Jean Dupont", first_name="Jean", last_name="Dupont", club=club)
    PlayerFactory(
        display_name="Jacques Dupont", first_name="Jacques", last_name="Dupont", club=club
    )
    client.force_login(club_admin)
    client.post(
        reverse("ranking-import", args=[club.slug]),
        {"pasted": "Rang\tNom\tPoints\n1\tJ. Dupont\t30\n2\tMarc Vos\t12"},
    )
    client.post(
        reverse("ranking-import-columns", args=[club.slug]),
        {"header": "on", "season": "2011", "rank": 0, "name": 1, "points": 2},
    )
    names = reverse("ranking-import-names", args=[club.slug])
    page = client.get(names)
    assert page.context["ambiguous"] == 1
    assert "plusieurs joueurs possibles" in page.content.decode()
    answer = client.post(names, {"line-2": "", "line-3": "new"})
    assert answer.status_code == 200
    assert answer.context["problems"] == [
        "Ligne 2 : dites qui est « J. Dupont » (un joueur du club, un nouveau joueur, ou ne "
        "pas l'importer)."
    ]
    # Nothing half-written: no season, no new player.
    assert not Season.objects.filter(club=club, name="2011").exists()
    assert not Player.objects.filter(display_name="Marc Vos").exists()


def test_the_lines_left_out_at_the_admins_choice_are_named_once_stored(client, club, club_admin):
    client.force_login(club_admin)
    client.post(
        reverse("ranking-import", args=[club.slug]),
        {"pasted": "Rang\tNom\tPoints\n1\tMarc Vos\t30\n2\tInvité du soir\t12\n3\tZoé Lens\t9"},
    )
    client.post(
        reverse("ranking-import-columns", args=[club.slug]),
        {"header": "on", "season": "2012", "rank": 0, "name": 1, "points": 2},
    )
    names = reverse("ranking-import-names", args=[club.slug])
    answer = client.post(names, {"line-2": "new", "line-3": "skip", "line-4": "new"}, follow=True)
    said = [str(message) for message in answer.context["messages"]]
    assert said == [
        "Classement 2012 importé : 2 joueurs.",
        "Ligne laissée de côté à votre demande : ligne 3 (Invité du soir).",
    ]


def test_the_review_page_reads_the_same_number_of_queries_for_any_number_of_lines(
    client, club, club_admin, club_members
):
    client.force_login(club_admin)
    counts = []
    for size in (3, 30):
        rows = [["Rang", "Nom", "Points"]] + [[str(i), f"Joueur {i}", "5"] for i in range(1, size)]
        client.post(
            reverse("ranking-import", args=[club.slug]), {"pasted": "\n".join(map("\t".join, rows))}
        )
        client.post(
            reverse("ranking-import-columns", args=[club.slug]),
            {"header": "on", "season": "2009", "rank": 0, "name": 1, "points": 2},
        )
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("ranking-import-names", args=[club.slug]))
        assert page.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 8


# Refusals -----------------------------------------------------------------------------------


def test_refusals_name_the_line_and_the_column():
    rows = [
        ["Rang", "Joueur", "Points", "Soirées"],
        ["1", "Anne Dupont", "12,5", "3"],
        ["deux", "Bruno Lemaire", "douze", "3"],
        ["3", "", "4", "x"],
    ]
    columns = {"rank": 0, "name": 1, "points": 2, "nights": 3}
    with pytest.raises(ValidationError) as refused:
        ranking_lines_read(rows, columns, header=True, labels=rows[0])
    assert refused.value.messages == [
        "Ligne 3, colonne A (« Rang ») : « deux » n'est pas un rang.",
        "Ligne 3, colonne C (« Points ») : « douze » n'est pas un nombre de points.",
        "Ligne 4, colonne B (« Joueur ») : le nom est vide.",
        "Ligne 4, colonne D (« Soirées ») : « x » n'est pas un nombre de soirées.",
    ]


def test_the_columns_page_shows_the_refusals_and_stores_nothing(client, club, club_admin):
    client.force_login(club_admin)
    client.post(
        reverse("ranking-import", args=[club.slug]),
        {"file": SimpleUploadedFile("c.csv", b"Rang,Nom,Points\n1,Anne,10\n2,Bruno,dix\n")},
    )
    answer = client.post(
        reverse("ranking-import-columns", args=[club.slug]),
        {"header": "on", "season": "2014", "rank": 0, "name": 1, "points": 2},
    )
    assert answer.status_code == 200
    assert "Ligne 3, colonne C (« Points ») : « dix » n&#x27;est pas un nombre de points." in (
        answer.content.decode()
    )
    assert not Season.objects.filter(club=club, name="2014").exists()


def test_a_season_with_nights_refuses_an_import_over_it(club, club_members, imported_night):
    season = imported_night.season
    before = RankingSnapshot.objects.filter(season=season).count()
    rows = [["Rang", "Nom", "Points", "Soirées"], ["1", "Anne Dupont", "10", "1"]]
    with pytest.raises(ValidationError, match="a déjà des soirées"):
        import_directly(club, season.start.year, rows)
    assert RankingSnapshot.objects.filter(season=season).count() == before
    assert Tournament.objects.filter(season=season).exists()


def test_an_import_again_replaces_the_imported_ranking_and_new_players_are_former_members(
    club, club_members
):
    rows = [*ranking_rows(2013), ["6", "Marc Vos", "3", "2", ""]]
    import_directly(club, 2013, rows)
    marc = Player.objects.get(display_name="Marc Vos")
    membership = Membership.objects.get(player=marc, club=club)
    assert membership.status == Membership.Status.FORMER
    assert (membership.start, membership.end) == (
        datetime.date(2013, 1, 1),
        datetime.date(2013, 12, 31),
    )
    import_directly(club, 2013, rows[:3])
    snapshot = RankingSnapshot.objects.get(season__club=club, season__name="2013")
    assert snapshot.lines.count() == 2
    # A publication from the nights cannot replace it: the season has none.
    with pytest.raises(ValidationError):
        ranking_publish_check(snapshot.season)


def test_two_lines_for_one_player_are_refused(club, club_members):
    anne = next(p for p in club_members if p.display_name == "Anne Dupont")
    rows = [["Rang", "Nom", "Points", "Soirées"], ["1", "Anne", "10", ""], ["2", "A. D.", "9", ""]]
    with pytest.raises(ValidationError) as refused:
        import_directly(club, 2016, rows, choices={2: anne.pk, 3: anne.pk})
    assert refused.value.messages == ["Ligne 3 : Anne Dupont est déjà la ligne 2."]
    assert not Season.objects.filter(club=club, name="2016").exists()


# Reading the table --------------------------------------------------------------------------


def test_a_table_pasted_from_a_web_page_is_read_from_its_html_or_its_tabs():
    html = (
        "<table><tr><th>Pos</th><th>Nom</th><th>Points</th></tr>"
        "<tr><td>1</td><td>Anne <b>Dupont</b></td><td>120</td></tr></table>"
    )
    assert table_from_paste(html) == [["Pos", "Nom", "Points"], ["1", "Anne Dupont", "120"]]
    assert table_from_paste("1\tAnne Dupont\t120\n") == [["1", "Anne Dupont", "120"]]
    assert header_guess(table_from_paste(html)) == (
        True,
        {"rank": 0, "name": 1, "points": 2, "nights": None},
    )


def test_csv_in_french_excel_and_xlsx_read_alike():
    rows = [["Rang", "Nom", "Points"], ["1", "Zoé Lambert", "12,5"]]
    assert table_from_csv(csv_bytes(rows)) == rows
    assert table_from_csv("Rang;Nom\n1;Zoé".encode("cp1252")) == [["Rang", "Nom"], ["1", "Zoé"]]
    assert table_read("r.xlsx", xlsx_bytes(rows)) == [
        ["Rang", "Nom", "Points"],
        ["1", "Zoé Lambert", "12.5"],
    ]


def test_only_the_club_admin_imports(client, club, member, scorer, outsider):
    for user, status in ((member, 403), (scorer, 403), (outsider, 404)):
        client.force_login(user)
        for name in ("ranking-import", "ranking-import-columns", "ranking-import-names"):
            assert client.get(reverse(name, args=[club.slug])).status_code == status
