"""``{{ value|points }}`` (club/templatetags/figures.py) and the rule behind it
(``scoring.engine.standings.points_text``): one text for a value wherever it is shown."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.core import mail
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from club.models import Player
from club.templatetags.figures import figure, points
from games.mailing import tournament_results_send
from scoring import services as scoring_services
from scoring.models import TournamentStanding
from tests.factories import UserFactory

# 2.125: on the midpoint between 2.12 and 2.13. The engine rounds half away from zero.
MIDPOINT = Fraction(17, 8)


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_points_read_as_floatformat_did_off_the_midpoints(language):
    """What the pages showed with ``floatformat:"-2"`` (``|points``) and ``floatformat:"2"``
    (``|points:2``) they show still, in every language."""
    values = [Fraction(n, d) for n in range(-30, 500, 7) for d in (1, 2, 3, 4, 6, 7, 12, 420)]
    values += [Fraction(5, 1000), Fraction(-1, 1000), Fraction(10**6, 3)]
    with translation.override(language):
        for value in values:
            assert points(value) == floatformat(value, "-2")
            assert points(value, 2) == floatformat(value, "2")


def test_points_round_a_midpoint_half_away_from_zero_in_the_readers_language():
    with translation.override("fr"):
        assert (points(MIDPOINT), points(-MIDPOINT), points(Fraction(5, 2))) == (
            "2,13",
            "-2,13",
            "2,50",
        )
    with translation.override("en"):
        assert (points(MIDPOINT), points(5), points(5, 2), points(None)) == (
            "2.13",
            "5",
            "5.00",
            "",
        )


@pytest.mark.django_db
def test_a_midpoint_reads_the_same_on_every_page_export_e_mail_and_the_api(client, imported_night):
    """The results page, its CSV and workbook, Mes résultats, the result e-mail and the API
    show a night's 17/8 points as 2.13 (each with its decimal separator), never 2.12."""
    night = scoring_services.tournament_publish(imported_night)
    line = TournamentStanding.objects.filter(tournament=night).order_by("rank").first()
    TournamentStanding.objects.filter(pk=line.pk).update(tournament_points=MIDPOINT)
    # Mes résultats lists the night as stored when it was closed: a standing changed here,
    # outside the services, is stored again as a correction stores it.
    scoring_services.night_statistics_store([night])
    user = UserFactory(username="milieu")
    Player.objects.filter(pk=line.player_id).update(
        user=user, email="milieu@example.org", language="fr", result_emails=True
    )
    address = {"slug": night.club.slug, "pk": night.pk}
    client.force_login(user)
    client.cookies["django_language"] = "fr"

    page = client.get(reverse("games:results", kwargs=address)).content.decode()
    assert '<td class="num">2,13</td>' in page

    # The spreadsheet's CSV writes the reader's decimal comma, the plain CSV a point.
    for fmt, delimiter, written in (("csv-tableur", ";", "2,13"), ("csv", ",", "2.13")):
        export = client.get(reverse("games:results-export", kwargs={**address, "fmt": fmt}))
        rows = list(
            csv.reader(io.StringIO(export.content.decode("utf-8-sig")), delimiter=delimiter)
        )
        assert written in [cell for row in rows for cell in row]

    workbook = client.get(reverse("games:results-export", kwargs={**address, "fmt": "xlsx"}))
    cells = load_workbook(io.BytesIO(workbook.content)).active.iter_rows(values_only=True)
    assert 2.13 in [cell for row in cells for cell in row]

    mine = client.get(reverse("my-results")).content.decode()
    assert '<td class="num">2,13</td>' in mine

    answer = client.get(reverse("api:my-results")).json()
    results = answer["results"] if isinstance(answer, dict) else answer
    assert "2.13" in [result["tournament_points"] for result in results]

    mail.outbox.clear()
    tournament_results_send(night)
    (message,) = [m for m in mail.outbox if "milieu@example.org" in m.to]
    assert "2,13" in message.body
    for text in (page, mine, message.body, export.content.decode("utf-8-sig")):
        assert "2,12" not in text and "2.12" not in text


def test_a_negative_game_score_is_written_with_the_minus_sign_not_a_hyphen():
    assert figure(-30) == "\u221230"
    assert figure(12) == "12"
    assert figure(None) == ""
