"""Corrections and deletions of recorded deals keep their history (scoring.services)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from games.models import DealChange
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db

# Seat 1 deals first, and is the mort at a table of 5: these deals fit both tables.
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


def test_a_correction_is_kept_with_before_and_after(running_night, scorer):
    poule = running_night.poules.get(round=1, table=1)
    deal = scoring_services.deal_record(poule, EMBALLAGE, by=scorer)
    corrected = {**EMBALLAGE, "tricks": 7}
    scoring_services.deal_correct(deal, corrected, by=scorer)
    change = DealChange.objects.get(deal=deal)
    assert (change.action, change.before, change.after, change.by) == (
        "corrected",
        EMBALLAGE,
        corrected,
        scorer,
    )
    deal.refresh_from_db()
    assert deal.points[1] < 0  # seat 2 declared emballage 8 and went down


def test_an_unchanged_correction_leaves_no_history(running_night):
    deal = scoring_services.deal_record(running_night.poules.get(round=1, table=1), EMBALLAGE)
    scoring_services.deal_correct(deal, dict(EMBALLAGE))
    assert not DealChange.objects.exists()


def test_a_deleted_deal_stays_in_the_poules_history(running_night, scorer):
    poule = running_night.poules.get(round=1, table=1)
    first = scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.deal_record(poule, SOLO)
    scoring_services.deal_delete(first, by=scorer)
    change = poule.changes.get()
    assert (change.action, change.position, change.before) == ("deleted", 1, EMBALLAGE)
    assert list(poule.deals.values_list("position", "data")) == [(1, SOLO)]


def test_a_closed_night_is_corrected_only_with_closed_ok(
    running_night, django_capture_on_commit_callbacks
):
    deal = scoring_services.deal_record(running_night.poules.get(round=1, table=1), EMBALLAGE)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    with pytest.raises(ValidationError, match="clôturée"):
        scoring_services.deal_correct(deal, SOLO)
    with django_capture_on_commit_callbacks() as callbacks:
        scoring_services.deal_correct(deal, SOLO, closed_ok=True)
    assert len(callbacks) == 2  # the season ranking and the ratings follow the correction
