"""One sheet, one truth: a Belgian whist night with passes, a removed deal and a correction
numbers and codes its deals the same on the phone's sheet, the results page, the history of
removals and corrections, the CSV and Excel exports and the API."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from games.models import Deal, Poule, Tournament
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db

SEATS = 5  # the table of 5: its dealer sits each deal out (the mort)


def sheet_url(name: str, night: Tournament, **kwargs) -> str:
    return reverse(f"games:{name}", kwargs={"slug": night.club.slug, "pk": night.pk, **kwargs})


def compact(page: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", page))


def number_of(text: str) -> int | None:
    return None if text in ("", "–") else int(text)


def play(poule: Poule) -> None:
    """Seven deals, two of them passes; each declarer chosen away from the dealer (the mort)."""
    dealer = 1
    plan = [
        ("solo", 6, 1, 7),
        ("pass", None, 0, None),
        ("emballage", 8, 2, 9),
        ("solo", 6, 1, 5),  # failed; removed below
        ("pass", None, 0, None),
        ("emballage", 8, 2, 8),  # corrected below
        ("solo", 7, 1, 7),
    ]
    for contract, bid, declarers, tricks in plan:
        playing = [str(seat) for seat in range(1, SEATS + 1) if seat != dealer]
        data = {"contract": contract}
        if contract != "pass":
            data |= {"bid": bid, "declarers": playing[:declarers], "tricks": tricks}
        scoring_services.deal_record(poule, data)
        if contract != "pass":
            dealer = dealer % SEATS + 1


def on_sheet(client, night: Tournament, poule: Poule) -> list[tuple[int | None, str]]:
    page = client.get(sheet_url("sheet", night, poule_pk=poule.pk)).content.decode()
    found = re.findall(r'<span class="code"><b class="n">([^<]*)</b> ([^<]*)</span>', page)
    return [(number_of(number), html.unescape(code).strip()) for number, code in found]


def on_results(client, night: Tournament, poule: Poule) -> list[tuple[int | None, str]]:
    page = compact(client.get(sheet_url("results", night)).content.decode())
    start = page.index(f'id="tour-{poule.round}-table-{poule.table}"')
    article = page[start : page.index("</article>", start)]
    found = re.findall(r'<td class="num">([^<]*)</td><td><b class="code">([^<]*)</b>', article)
    return [(number_of(number), html.unescape(code)) for number, code in found]


def in_csv(client, night: Tournament, poule: Poule) -> list[tuple[int | None, str]]:
    response = client.get(sheet_url("deals-export", night, fmt="csv"))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert rows[0][:5] == ["Date", "Tour", "Table", "Donne", "Code"]
    return [
        (number_of(number), code)
        for _date, round, table, number, code, *_rest in rows[1:]
        if (int(round), int(table)) == (poule.round, poule.table)
    ]


def in_xlsx(client, night: Tournament, poule: Poule) -> list[tuple[int | None, str]]:
    response = client.get(sheet_url("deals-export", night, fmt="xlsx"))
    sheet = load_workbook(io.BytesIO(response.content)).active
    return [
        (number, code)
        for _date, round, table, number, code, *_rest in sheet.iter_rows(
            min_row=2, values_only=True
        )
        if (round, table) == (poule.round, poule.table)
    ]


def in_api(user, night: Tournament, poule: Poule) -> list[tuple[int | None, str]]:
    api = APIClient()
    api.force_login(user)
    body = api.get(f"/api/v1/clubs/{night.club.slug}/nights/{night.pk}/").json()
    deals = next(p["deals"] for p in body["poules"] if p["id"] == poule.pk)
    return [(deal["number"], deal["code"]) for deal in deals]


def test_every_reader_numbers_and_codes_the_deals_as_the_sheet_does(client, running_night, scorer):
    poule = next(p for p in running_night.poules.filter(round=1) if p.seats.count() == SEATS)
    play(poule)
    client.force_login(scorer)
    before = on_sheet(client, running_night, poule)
    # The passes take no number, on the sheet as everywhere.
    assert [number for number, _code in before] == [1, None, 2, 3, None, 4, 5]

    failed = Deal.objects.get(poule=poule, position=4)
    scoring_services.deal_delete(failed, by=scorer)
    corrected = Deal.objects.get(poule=poule, position=5)
    fixed = {**corrected.data, "tricks": 10}
    scoring_services.deal_correct(corrected, fixed, by=scorer, version=None)

    sheet = on_sheet(client, running_night, poule)
    assert [number for number, _code in sheet] == [1, None, 2, None, 3, 4]
    assert all(code for _number, code in sheet)
    assert sheet[4][1] != before[5][1]  # the correction shows (9 tricks → 10)
    assert on_results(client, running_night, poule) == sheet
    assert in_csv(client, running_night, poule) == sheet
    assert in_xlsx(client, running_night, poule) == sheet
    assert in_api(scorer, running_night, poule) == sheet

    # The history: the removed deal under the number it had on the sheet (3), the correction
    # under its deal's row (3 on the sheet now, as everywhere).
    page = compact(
        client.get(sheet_url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    )
    removed = page[page.index("Donnes supprimées") :]
    assert re.search(r"<li>Donne (\d+) —", removed).group(1) == str(before[3][0]) == "3"
    rows = page.split('<details class="deal-row')[1:]
    corrected_rows = [row for row in rows if "corrigée une fois" in row]
    assert len(corrected_rows) == 1
    number = re.search(r'<b class="n">([^<]*)</b>', corrected_rows[0]).group(1)
    assert number_of(number) == sheet[4][0] == 3
