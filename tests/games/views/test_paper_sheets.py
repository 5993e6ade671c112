"""The paper score sheets: a drawn round's tables printed at once, each with its players, the
dealer and the mort of every deal, the codes' legend and a QR code that opens its phone sheet
(decoded here from the SVG the page prints); blank sheets; and a paper sheet typed in at once,
refused row by row in the club's words."""

from __future__ import annotations

import re

import pytest
import zxingcpp
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image, ImageDraw

from games.models import Deal, Poule
from games.numbering import deal_numbers
from games.presenters.paper import dealer_rows
from scoring import services as scoring_services
from tests.conftest import persona


def qr_image(svg: str) -> Image.Image:
    """The page's QR code drawn as a printer would: segno's path is one horizontal stroke of
    one module's width per run of dark modules ("M x y" "m dx dy" "h length")."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    path = re.search(r' d="([^"]+)"', svg).group(1)
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    draw = ImageDraw.Draw(image)
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHh])([^MmHh]*)", path):
        values = [float(v) for v in numbers.replace(",", " ").split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            length = values[0]
            top = (y - 0.5) * scale
            draw.rectangle([x * scale, top, (x + length) * scale - 1, top + scale - 1], fill=0)
            x += length
    return image


def sheets_url(night, round_number=1, **query) -> str:
    url = reverse("games:paper-sheets", args=[night.club.slug, night.pk, round_number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_each_printed_qr_code_decodes_to_its_tables_phone_sheet(client, running_night, scorer):
    client.force_login(scorer)
    page = client.get(sheets_url(running_night))
    html = page.content.decode()
    poules = list(Poule.objects.filter(tournament=running_night, round=1).order_by("table"))
    svgs = re.findall(r'<svg viewBox="[^"]+" class="qr">.*?</svg>', html)
    assert len(svgs) == len(poules) == 2
    for svg, poule in zip(svgs, poules, strict=True):
        decoded = [result.text for result in zxingcpp.read_barcodes(qr_image(svg))]
        assert decoded == [
            "http://testserver"
            + reverse("games:sheet", args=[running_night.club.slug, running_night.pk, poule.pk])
        ]


def test_a_sheet_names_the_seats_the_dealer_and_the_mort_of_each_deal_and_has_the_legend(
    client, running_night, scorer
):
    client.force_login(scorer)
    page = client.get(sheets_url(running_night, format="a5"))
    five = next(s for s in page.context["sheets"] if len(s.seats) == 5)
    four = next(s for s in page.context["sheets"] if len(s.seats) == 4)
    club = running_night.club
    assert len(four.rows) == club.deals_per_poule_4 and len(five.rows) == club.deals_per_poule_5
    # Seat 1 deals first, then one seat clockwise; at a table of 5 the dealer sits out.
    assert [(row.dealer, row.mort) for row in five.rows[:6]] == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (1, 1)
    ]  # fmt: skip
    assert [(row.dealer, row.mort) for row in four.rows[:5]] == [
        (1, None), (2, None), (3, None), (4, None), (1, None)
    ]  # fmt: skip
    html = page.content.decode()
    assert 'class="printable paper-a5"' in html
    assert html.count('class="paper-sheet"') == 2
    assert html.count("Légende des codes") == 2 and "<dt>E8</dt>" in html
    for seat in Poule.objects.get(pk=five_poule(running_night).pk).seats.all():
        assert seat.player.display_name in html


def five_poule(night) -> Poule:
    return next(p for p in Poule.objects.filter(tournament=night) if p.seats.count() == 5)


def test_the_dealer_rotation_is_the_engines():
    assert [(r.dealer, r.mort) for r in dealer_rows("belgian_whist", 4, 3)] == [
        (1, None), (2, None), (3, None)
    ]  # fmt: skip


def test_the_round_sheets_read_the_same_number_of_queries_for_any_number_of_tables(
    client, running_night, scorer, club_members
):
    client.force_login(scorer)
    client.get(sheets_url(running_night))  # the first page of a session reads its club once
    with CaptureQueriesContext(connection) as two_tables:
        client.get(sheets_url(running_night))
    running_night.present.add(*club_members[9:12])
    scoring_services.round_draw(running_night, 1, seed=99)
    assert Poule.objects.filter(tournament=running_night, round=1).count() == 3
    with CaptureQueriesContext(connection) as three_tables:
        client.get(sheets_url(running_night))
    assert len(two_tables) == len(three_tables) <= 10


def test_blank_sheets_have_lines_for_the_names_and_the_nights_qr_code(
    client, running_night, scorer
):
    client.force_login(scorer)
    url = reverse("games:blank-sheets", args=[running_night.club.slug, running_night.pk])
    page = client.get(url + "?tables=3&places=5")
    sheets = page.context["sheets"]
    assert len(sheets) == 3 and all(len(s.seats) == 5 and not s.seats[0].name for s in sheets)
    svg = re.search(r'<svg viewBox="[^"]+" class="qr">.*?</svg>', page.content.decode()).group(0)
    assert [r.text for r in zxingcpp.read_barcodes(qr_image(svg))] == [
        "http://testserver"
        + reverse("games:tournament", args=[running_night.club.slug, running_night.pk])
    ]


def test_the_public_and_members_get_no_sheets_of_an_unpublished_night(
    client, running_night, member, outsider
):
    blank = reverse("games:blank-sheets", args=[running_night.club.slug, running_night.pk])
    for user, status in ((member, 403), (outsider, 404)):
        client.force_login(user)
        assert client.get(sheets_url(running_night)).status_code == status
        assert client.get(blank).status_code == status


# Typing a paper sheet in ----------------------------------------------------------------------


def entry_url(poule: Poule) -> str:
    night = poule.tournament
    return reverse("games:sheet-entry", args=[night.club.slug, night.pk, poule.pk])


def four_poule(night) -> Poule:
    return next(p for p in Poule.objects.filter(tournament=night) if p.seats.count() == 4)


def test_a_whole_paper_sheet_is_scored_at_once_as_the_phone_scores_it(
    client, running_night, scorer
):
    poule = four_poule(running_night)
    client.force_login(scorer)
    rows = ["E8 13 9", "S6 2 7", "PM 24 0 2", "P", "A9 1 9", "T8 34 8"]
    data = {f"contract-{i}": row for i, row in enumerate(rows)}
    data["declarers-1"], data["contract-1"], data["tricks-1"] = "2", "s6", "7"  # fields apart
    answer = client.post(entry_url(poule), data)
    assert answer.status_code == 302, answer.context["rows"]
    deals = [d.data for d in Deal.objects.filter(poule=poule).order_by("position")]
    assert deals == [
        {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
        {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7},
        {"contract": "petite_misere", "declarers": ["2", "4"], "tricks": {"2": 0, "4": 2}},
        {"contract": "pass"},
        {"contract": "abondance", "bid": 9, "declarers": ["1"], "tricks": 9},
        {"contract": "trou", "bid": 8, "declarers": ["3", "4"], "tricks": 8},
    ]
    poule.refresh_from_db()
    assert poule.counted_deals == 5
    assert sum(s.game_points for s in poule.standings.all()) == 0


def test_each_refusal_is_shown_on_its_row_and_nothing_is_recorded(client, running_night, scorer):
    poule = four_poule(running_night)
    client.force_login(scorer)
    data = {"contract-0": "E8 13 9", "contract-1": "X9 1 9", "contract-2": "S6 12 7",
            "contract-3": "E8 13 14"}  # fmt: skip
    answer = client.post(entry_url(poule), data)
    assert answer.status_code == 200
    rows = answer.context["rows"]
    assert rows[0].problems == []
    assert rows[1].problems == ["« X9 » n'est pas un code de contrat (voir la légende)."]
    assert Deal.objects.filter(poule=poule).count() == 0
    # The engine's refusals, once the codes read: on their rows, in the site's words.
    data["contract-1"] = "E9 24 9"
    answer = client.post(entry_url(poule), data)
    rows = answer.context["rows"]
    assert rows[1].problems == []
    assert rows[2].problems == ["Donne 3 : Solo se joue avec un seul déclarant : 2 sont cochés."]
    assert rows[3].problems == ["Donne 4 : 14 plis : c'est entre 0 et 13."]
    assert Deal.objects.filter(poule=poule).count() == 0
    assert "Rien n'est enregistré" in answer.content.decode()


def test_typing_continues_after_the_deals_already_recorded(client, running_night, scorer):
    poule = four_poule(running_night)
    scoring_services.deal_record(
        poule, {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 6}
    )
    client.force_login(scorer)
    page = client.get(entry_url(poule))
    rows = page.context["rows"]
    assert rows[0].number == 2 and rows[0].dealer == 2
    assert len(rows) == running_night.club.deals_per_poule_4 - 1
    assert client.post(entry_url(poule), {"contract-0": "E8 13 9"}).status_code == 302
    assert Deal.objects.filter(poule=poule).count() == 2


@pytest.mark.parametrize("role", [None, "member"])
def test_only_the_clubs_scorers_and_admins_type_a_sheet_in(client, running_night, role):
    poule = four_poule(running_night)
    user = persona(running_night.club, f"someone-{role}", role)
    client.force_login(user)
    status = 404 if role is None else 403
    assert client.get(entry_url(poule)).status_code == status
    assert client.post(entry_url(poule), {"contract-0": "E8 13 9"}).status_code == status
    assert not Deal.objects.filter(poule=poule).exists()


def test_a_club_admin_types_a_sheet_in_after_the_night_is_closed(
    client, running_night, club_admin, scorer
):
    poule = four_poule(running_night)
    running_night.status = running_night.Status.CLOSED
    running_night.save(update_fields=["status"])
    client.force_login(scorer)
    assert client.get(entry_url(poule)).status_code == 403
    client.force_login(club_admin)
    assert client.get(entry_url(poule)).status_code == 200


def test_every_rows_problems_are_shown_at_once_and_nothing_is_recorded(
    client, running_night, scorer
):
    """Row 1 has 14 tricks (the engine's refusal), row 2 a solo without declarers (the page's
    own): both are flagged on the first submit, each on its row."""
    poule = four_poule(running_night)
    client.force_login(scorer)
    data = {"contract-0": "E8 13 14", "contract-1": "S6", "tricks-1": "7", "contract-2": "X9 1 9",
            "contract-3": "A9 1 9"}  # fmt: skip
    answer = client.post(entry_url(poule), data)
    assert answer.status_code == 200
    rows = answer.context["rows"]
    assert rows[0].problems == ["Donne 1 : 14 plis : c'est entre 0 et 13."]
    assert rows[1].problems == ["Déclarants : leurs numéros de place, de 1 à 4 (ex. 13)."]
    assert rows[2].problems == ["« X9 » n'est pas un code de contrat (voir la légende)."]
    assert rows[3].problems == []
    assert answer.context["problems"] == []
    assert not Deal.objects.filter(poule=poule).exists()
    html = answer.content.decode()
    assert html.count('class="row-problems"') == 3


def test_a_row_left_empty_and_a_refused_deal_after_it_are_said_together(
    client, running_night, scorer
):
    poule = five_poule(running_night)
    client.force_login(scorer)
    # Deal 2 is dealt by seat 2, the mort: he cannot declare. Row 2 is left empty.
    data = {"contract-0": "E8 23 9", "contract-2": "S6 3 7"}
    rows = client.post(entry_url(poule), data).context["rows"]
    assert rows[1].problems == ["Ligne vide avant d'autres donnes : remplissez-la."]
    [refusal] = rows[2].problems
    assert refusal.startswith("Donne 3 : ") and "est le mort de cette donne" in refusal


def test_after_a_typed_pass_each_row_shows_the_dealer_and_mort_the_site_records(
    client, running_night, scorer
):
    """At a table of 5 the dealer is the mort; a pass takes no number and the same dealer
    deals again: the rows after it follow, as the deals are then stored."""
    poule = five_poule(running_night)
    client.force_login(scorer)
    typed = ["E8 23 9", "P", "S6 3 7", "Passe", "Passe", "T8 14 8", "A9 2 9"]
    data = {f"contract-{i}": row for i, row in enumerate(typed)}
    data["contract-7"] = "E8 12"  # tricks missing: the page comes back, nothing recorded
    page = client.post(entry_url(poule), data)
    rows = page.context["rows"]
    assert [(row.number, row.dealer, row.mort) for row in rows[:8]] == [
        (1, 1, 1), (None, 2, 2), (2, 2, 2), (None, 3, 3), (None, 3, 3), (3, 3, 3), (4, 4, 4),
        (5, 5, 5),
    ]  # fmt: skip
    # Three passes typed: three rows more than the table's deals, each deal keeps its row.
    assert len(rows) == running_night.club.deals_per_poule_5 + 3
    assert sum(1 for row in rows if row.number is not None) == running_night.club.deals_per_poule_5
    # The page's script numbers the rows the same way from what the view sends it.
    assert page.context["rotation"][:4] == [[1, 1], [2, 2], [3, 3], [4, 4]]
    assert page.context["pass_codes"] == ["p", "passe"]

    data["contract-7"] = "E8 12 8"
    answer = client.post(entry_url(poule), data)
    assert answer.status_code == 302
    stored = list(Deal.objects.filter(poule=poule).order_by("position"))
    assert [deal.dealer for deal in stored] == [row.dealer for row in rows[:8]]
    assert deal_numbers("belgian_whist", stored) == [row.number for row in rows[:8]]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (["E8 13 9", "S6 2 7", "P", "A9 1 9", "T8 34 8"], "4 donnes et 1 passe enregistrées"),
        (["E8 13 9"], "1 donne enregistrée à la table"),
        (["E8 13 9", "P", "Passe"], "1 donne et 2 passes enregistrées"),
        (["P"], "1 passe enregistrée à la table"),
    ],
)
def test_the_confirmation_counts_deals_and_passes_apart(client, running_night, scorer, typed, said):
    poule = four_poule(running_night)
    client.force_login(scorer)
    data = {f"contract-{i}": row for i, row in enumerate(typed)}
    answer = client.post(entry_url(poule), data, follow=True)
    assert said in answer.content.decode()


def test_a_deal_typed_beyond_the_tables_count_is_refused_on_its_row(client, running_night, scorer):
    """A row added for a pass stays when the pass is typed over: the deal it then holds is
    one more than the table plays, said on its row."""
    poule = four_poule(running_night)
    client.force_login(scorer)
    count = running_night.club.deals_per_poule_4
    data = {f"contract-{i}": "E8 13 9" for i in range(count + 1)}
    answer = client.post(entry_url(poule), data)
    rows = answer.context["rows"]
    assert rows[count].problems == [f"Une donne de trop : cette table en joue {count} ce soir."]
    assert not Deal.objects.filter(poule=poule).exists()


def test_a_declarer_typed_as_a_superscript_is_refused_on_its_row(client, running_night, scorer):
    """« ² » is a digit to Python, but no seat's number: the row says so (never a 500)."""
    poule = four_poule(running_night)
    client.force_login(scorer)
    answer = client.post(
        entry_url(poule), {"contract-0": "S6", "declarers-0": "²", "tricks-0": "7"}
    )
    assert answer.status_code == 200
    assert answer.context["rows"][0].problems == [
        "Déclarants : leurs numéros de place, de 1 à 4 (ex. 13)."
    ]
    assert not Deal.objects.filter(poule=poule).exists()
