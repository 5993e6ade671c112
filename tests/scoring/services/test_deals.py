"""A deal sent again with its phone's key is answered in one place, the service
(scoring/services/deals.py): found and handed back as the first time, whatever the night's
state; refused when the key comes with another deal; a key the poule does not know is new."""

import uuid

import pytest

from scoring import services
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def test_a_resent_deal_is_found_even_once_the_night_is_closed(running_night):
    poule = running_night.poules.filter(round=1).first()
    key = uuid.uuid4()
    first = services.deal_record(poule, SOLO, client_key=key)
    services.tournament_close(
        running_night, unfinished_ok=True, send_results=False, rank_season=False
    )
    again = services.deal_resent(running_night, poule.pk, key, SOLO)
    assert again.pk == first.pk and again.replayed
    assert services.deal_resent(running_night, poule.pk, uuid.uuid4(), SOLO) is None
    assert services.deal_resent(running_night, poule.pk, None, SOLO) is None


def test_a_key_sent_with_another_deal_is_refused_not_replayed(running_night):
    poule = running_night.poules.filter(round=1).first()
    key = uuid.uuid4()
    services.deal_record(poule, SOLO, client_key=key)
    with pytest.raises(services.DealConflict) as refused:
        services.deal_resent(running_night, poule.pk, key, EMBALLAGE)
    assert refused.value.code == "key_reused"
    assert poule.deals.count() == 1


def test_a_poule_is_searched_within_its_own_night_only(running_night):
    poule = running_night.poules.filter(round=1).first()
    key = uuid.uuid4()
    services.deal_record(poule, SOLO, client_key=key)
    another_night = TournamentFactory(club=running_night.club, season=running_night.season)
    assert services.deal_resent(another_night, poule.pk, key, SOLO) is None
