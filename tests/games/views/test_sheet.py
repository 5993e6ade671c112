"""The score sheet at the table (games/views/sheet.py, scoring.services deal recording): a deal
sent twice is stored once, a table at its deal count refuses more deals unless the poule is
longer tonight, the last deal is undone in one tap, passes take no number, a removal asks
first, and a sheet or deal changed by someone else meanwhile is not overwritten (409)."""

from __future__ import annotations

import re
import threading
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Membership
from games import services as games_services
from games.dealforms import deal_post
from games.models import Deal, DealChange, Tournament
from games.services import point_table_for_preset
from scoring import services as scoring_services
from scoring.services import deals as deals_service
from tests.conftest import persona
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}
PASS = {"contract": "pass"}


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(
        f"games:{name}", kwargs={"slug": tournament.club.slug, "pk": tournament.pk, **kwargs}
    )


def table_of(tournament: Tournament, size: int):
    return next(p for p in tournament.poules.filter(round=1) if p.seats.count() == size)


def post_deal(client, poule, deal, **extra):
    return client.post(
        url("sheet", poule.tournament, poule_pk=poule.pk),
        {**deal_post(poule, deal), **extra},
        HTTP_HX_REQUEST="true",
    )


# -- a deal sent twice


def test_a_deal_sent_twice_with_the_same_key_is_stored_once(client, running_night, scorer):
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    key = str(uuid.uuid4())
    first = post_deal(client, poule, EMBALLAGE, client_key=key, seen="0")
    # The answer was lost; the phone sends the same deal again (the sheet it knew: 0 deals).
    again = post_deal(client, poule, EMBALLAGE, client_key=key, seen="0")
    assert (first.status_code, first["X-Sheet-Result"]) == (200, "recorded")
    assert (again.status_code, again["X-Sheet-Result"]) == (200, "replayed")
    deal = poule.deals.get()
    assert (deal.data, str(deal.client_key)) == (EMBALLAGE, key)
    # Answered as the first time: the same sheet, the deal in it once.
    assert again.content.decode().count('id="donne-1"') == 1
    assert "1/12" in again.content.decode()


def test_the_service_records_a_key_once_and_a_new_key_again(running_night):
    poule = table_of(running_night, 4)
    key = uuid.uuid4()
    first = scoring_services.deal_record(poule, SOLO, client_key=key)
    again = scoring_services.deal_record(poule, SOLO, client_key=key)
    assert again.pk == first.pk and again.replayed
    scoring_services.deal_record(poule, SOLO, client_key=uuid.uuid4())
    assert poule.deals.count() == 2


def test_a_retry_of_a_deal_undone_since_is_refused_not_recorded_again(running_night):
    poule = table_of(running_night, 4)
    key = uuid.uuid4()
    scoring_services.deal_record(poule, EMBALLAGE)
    undone = scoring_services.deal_record(poule, SOLO, client_key=key)
    scoring_services.deal_delete(undone, last_only=True)
    assert DealChange.objects.get().client_key == key
    # The phone never heard the first answer: it sends the deal again, as it saw the sheet.
    with pytest.raises(scoring_services.DealConflict) as refused:
        scoring_services.deal_record(poule, SOLO, client_key=key, seen=1)
    assert refused.value.code == "deal_removed"
    assert "La donne 2 envoyée par ce téléphone a été enregistrée, puis retirée" in str(
        refused.value
    )
    assert list(poule.deals.values_list("data", flat=True)) == [EMBALLAGE]
    # The same deal entered again (a new key) is recorded.
    scoring_services.deal_record(poule, SOLO, client_key=uuid.uuid4(), seen=1)
    assert poule.deals.count() == 2


def test_a_retry_of_an_undone_deal_says_so_even_once_the_night_is_closed(running_night):
    poule = table_of(running_night, 4)
    key = uuid.uuid4()
    scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.deal_delete(scoring_services.deal_record(poule, SOLO, client_key=key))
    scoring_services.tournament_close(running_night, unfinished_ok=True, send_results=False)
    with pytest.raises(scoring_services.DealConflict) as refused:
        scoring_services.deal_record(poule, SOLO, client_key=key, seen=1)
    assert refused.value.code == "deal_removed"
    assert poule.deals.count() == 1


def test_refusals_name_a_deal_by_its_number_on_the_sheet_where_passes_take_none(running_night):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, PASS)
    scoring_services.deal_record(poule, EMBALLAGE)
    kept, undone = uuid.uuid4(), uuid.uuid4()
    scoring_services.deal_record(poule, SOLO, client_key=kept)
    scoring_services.deal_delete(
        scoring_services.deal_record(poule, EMBALLAGE, client_key=undone), last_only=True
    )
    # Third in the table's storage, second on the sheet: the pass before it takes no number.
    with pytest.raises(scoring_services.DealConflict) as reused:
        scoring_services.deal_record(poule, EMBALLAGE, client_key=kept)
    assert "la clé de la donne 2, déjà enregistrée" in str(reused.value.messages[0])
    with pytest.raises(scoring_services.DealConflict) as removed:
        scoring_services.deal_record(poule, EMBALLAGE, client_key=undone)
    assert "La donne 3 envoyée par ce téléphone" in str(removed.value.messages[0])
    passed = uuid.uuid4()
    scoring_services.deal_delete(
        scoring_services.deal_record(poule, PASS, client_key=passed), last_only=True
    )
    with pytest.raises(scoring_services.DealConflict) as removed_pass:
        scoring_services.deal_record(poule, PASS, client_key=passed)
    assert "La passe envoyée par ce téléphone" in str(removed_pass.value.messages[0])


def test_the_sheet_answers_a_retry_of_an_undone_deal_409_in_words(client, running_night, scorer):
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    key = str(uuid.uuid4())
    assert post_deal(client, poule, SOLO, client_key=key, seen="0")["X-Sheet-Result"] == "recorded"
    client.post(
        url("sheet-undo", running_night, poule_pk=poule.pk),
        {"deal": poule.deals.get().pk},
        HTTP_HX_REQUEST="true",
    )
    again = post_deal(client, poule, SOLO, client_key=key, seen="0")
    assert (again.status_code, again["X-Sheet-Result"]) == (409, "conflict")
    assert "enregistrée, puis retirée de la feuille" in again.content.decode()
    assert not poule.deals.exists()


def test_a_form_posted_twice_without_the_script_is_stored_once(client, running_night, scorer):
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    key = page.split('name="client_key" value="', 1)[1].split('"', 1)[0]
    data = {**deal_post(poule, SOLO), "client_key": key, "seen": "0"}
    for _ in range(2):
        response = client.post(url("sheet", running_night, poule_pk=poule.pk), data)
        assert response.status_code == 302
    assert poule.deals.count() == 1


def test_a_deal_sent_from_a_sheet_another_phone_changed_is_refused_409(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, EMBALLAGE)  # another phone, meanwhile
    client.force_login(scorer)
    response = post_deal(client, poule, SOLO, client_key=str(uuid.uuid4()), seen="0")
    assert (response.status_code, response["X-Sheet-Result"]) == (409, "conflict")
    page = response.content.decode()
    assert "a changé cette feuille pendant ce temps" in page
    assert 'id="donne-1"' in page  # the sheet as it is now
    assert response.context["form"].deal_data() == SOLO  # the deal typed, kept
    assert poule.deals.count() == 1


def test_recording_a_deal_still_takes_12_queries_at_most(client, running_night, scorer):
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    post_deal(client, poule, EMBALLAGE, client_key=str(uuid.uuid4()), seen="0")
    with CaptureQueriesContext(connection) as queries:
        response = post_deal(client, poule, SOLO, client_key=str(uuid.uuid4()), seen="1")
    assert response["X-Sheet-Result"] == "recorded"
    # Session and user (2), then the sheet's own: the budget the benchmark reports.
    assert len(queries) - 2 <= 12, [q["sql"] for q in queries]


# -- the deal count


def test_a_table_at_its_deal_count_refuses_another_deal(running_night):
    poule = table_of(running_night, 4)
    scoring_services.deals_record(poule, [EMBALLAGE] * 12)
    poule.refresh_from_db()
    for deal in (SOLO, PASS):
        with pytest.raises(ValidationError, match="plus longue ce soir"):
            scoring_services.deal_record(poule, deal)
    assert poule.deals.count() == 12


def test_the_poule_is_longer_tonight_when_the_scorer_says_so(client, running_night, scorer):
    poule = table_of(running_night, 4)
    scoring_services.deals_record(poule, [EMBALLAGE] * 12)
    client.force_login(scorer)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    assert "La poule a ses 12 donnes" in page and 'name="longer"' in page
    refused = post_deal(client, poule, SOLO)
    assert refused["X-Sheet-Result"] == "refused"
    assert "plus longue ce soir" in refused.content.decode()
    assert poule.deals.count() == 12
    accepted = post_deal(client, poule, SOLO, longer="1")
    assert accepted["X-Sheet-Result"] == "recorded"
    poule.refresh_from_db()
    assert (poule.deals.count(), poule.extra_deals) == (13, 1)
    assert "13/13" in accepted.content.decode()
    # The night's board and the room screen count the table's deals of tonight too.
    board = client.get(url("tournament", running_night)).content.decode()
    assert "13/13" in board
    room = client.get(url("room", running_night)).context["rounds"][0]
    others = sum(p.deals_tonight(p.seats.count()) for p in running_night.poules.filter(round=1))
    assert room["expected"] == others
    assert room["played"] == 13


def test_games_played_to_a_score_have_no_deal_count(running_night, club, season, club_members):
    whist = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game="whist",
        point_table=point_table_for_preset("whist7"),
    )
    games_services.presence_set(whist, club_members[:4])
    scoring_services.round_draw(whist, 1, seed=3)
    poule = whist.poules.get()
    teams = [["1", "3"], ["1", "2"], ["1", "4"]]
    recorded = 0
    # One point a deal (7 tricks): each partie to 7 lasts 7 deals, the partie générale 21.
    for _ in range(14):
        for team in teams:
            try:
                scoring_services.deal_record(poule, {"tricks": {"team": team, "tricks": 7}})
                recorded += 1
                break
            except ValidationError:
                continue
    assert recorded == 14


def test_a_robre_table_shows_the_robres_each_team_won(client, club, season, club_members, scorer):
    """Partie simple 2 (robre10): two manches of 10 make a robre, two robres the partie."""
    night = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game="whist",
        point_table=point_table_for_preset("robre10"),
    )
    games_services.presence_set(night, club_members[:4])
    scoring_services.round_draw(night, 1, seed=3)
    poule = night.poules.get()
    slam = {"tricks": {"team": ["1", "3"], "tricks": 13}}  # 14 points: a manche each deal
    for _ in range(2):
        scoring_services.deal_record(poule, slam)
    client.force_login(scorer)

    page = client.get(url("sheet", night, poule_pk=poule.pk)).content.decode()

    assert "data-robres>1</strong> – <strong>0</strong>" in page
    assert "robre en cours : manches 0–0" in page
    assert "Partie 1" in page


def test_a_refused_deal_is_named_by_its_number_on_the_sheet(client, running_night, scorer):
    """A pass takes no number: after one, the refused deal is "Donne 1" as the form says."""
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, PASS)
    client.force_login(scorer)
    misere = {"contract": "petite_misere", "declarers": ["1"], "tricks": {"1": 13}}

    page = post_deal(client, poule, misere).content.decode()

    assert poule.deals.count() == 1
    assert "Donne 1 :" in page
    assert "Donne 2 :" not in page


def test_the_form_refuses_in_the_sites_words_and_ignores_what_the_contract_does_not_use(
    client, running_night, scorer
):
    """The stuck deal: a petite misère with 14 tricks is refused next to its field, naming the
    deal, the contract and the player; the solo the scorer picks instead is recorded although
    the misère's 14 is posted with it."""
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    misere = {"contract": "petite_misere", "declarers": ["2"], "tricks": {"2": 0}}
    name = poule.seats.get(number=2).player.display_name.split()[0]

    response = post_deal(client, poule, misere, tricks_2="14")
    page = response.content.decode()
    assert response["X-Sheet-Result"] == "refused"
    assert f"Donne 1 : Petite misère, plis de {name} : 14 ? C&#x27;est un nombre de 0 à 13." in page
    assert "Assurez-vous" not in page
    assert poule.deals.count() == 0

    solo = {"contract": "solo", "bid": 7, "declarers": ["2"], "tricks": 8}
    response = post_deal(client, poule, solo, tricks_2="14")
    assert response["X-Sheet-Result"] == "recorded"
    assert [deal.data for deal in poule.deals.all()] == [solo]


# -- undo


def test_undo_removes_the_last_deal_with_its_history_and_refills_the_form(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, EMBALLAGE)
    last = scoring_services.deal_record(poule, SOLO)
    client.force_login(scorer)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    assert url("sheet-undo", running_night, poule_pk=poule.pk) in page
    response = client.post(
        url("sheet-undo", running_night, poule_pk=poule.pk),
        {"deal": last.pk},
        HTTP_HX_REQUEST="true",
    )
    assert (response.status_code, response["X-Sheet-Result"]) == (200, "undone")
    assert list(poule.deals.values_list("data", flat=True)) == [EMBALLAGE]
    change = DealChange.objects.get()
    assert (change.action, change.before, change.by) == ("deleted", SOLO, scorer)
    # The form opens with the undone deal: one choice changed and it is saved again.
    assert response.context["form"].initial_deal == SOLO
    assert "Donnes supprimées" in response.content.decode()


def test_undo_refuses_when_another_deal_came_after_409(client, running_night, scorer):
    poule = table_of(running_night, 4)
    shown_last = scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.deal_record(poule, SOLO)  # another phone, meanwhile
    client.force_login(scorer)
    response = client.post(
        url("sheet-undo", running_night, poule_pk=poule.pk),
        {"deal": shown_last.pk},
        HTTP_HX_REQUEST="true",
    )
    assert (response.status_code, response["X-Sheet-Result"]) == (409, "conflict")
    assert "Une autre donne a été enregistrée après celle-ci" in response.content.decode()
    assert poule.deals.count() == 2 and not DealChange.objects.exists()


def test_undo_without_the_script_redirects_to_the_sheet(client, running_night, scorer):
    poule = table_of(running_night, 4)
    last = scoring_services.deal_record(poule, EMBALLAGE)
    client.force_login(scorer)
    response = client.post(
        url("sheet-undo", running_night, poule_pk=poule.pk), {"deal": last.pk}, follow=True
    )
    assert response.redirect_chain[-1][0] == url("sheet", running_night, poule_pk=poule.pk)
    assert "Dernière donne annulée" in response.content.decode()
    assert not poule.deals.exists()


# -- passes take no number


def test_passed_deals_are_not_numbered_as_counted_deals(client, running_night, scorer):
    poule = table_of(running_night, 5)
    # The dealer sits out at a table of 5: each solo is declared by the seat after him.
    deals, dealer = [], 0
    for index in range(12):
        if index in (1, 2):
            deals.append(PASS)  # the same dealer deals again
            continue
        deals.append({**SOLO, "declarers": [str((dealer + 1) % 5 + 1)]})
        dealer = (dealer + 1) % 5
    scoring_services.deals_record(poule, deals)
    client.force_login(scorer)
    response = client.get(url("sheet", running_night, poule_pk=poule.pk))
    rows = response.context["rows"]
    assert [row["ordinal"] for row in rows] == [1, None, None, *range(2, 11)]
    page = response.content.decode()
    assert "10/15" in page
    # The next deal is the 11th counted deal, though 12 deals are on the sheet.
    assert "Donne 11" in page and "Donne 13" not in page


# -- removing a deal asks first; a correction is not overwritten


def test_removing_a_deal_asks_first_and_says_what_will_happen(client, running_night, scorer):
    poule = table_of(running_night, 4)
    deal = scoring_services.deal_record(poule, EMBALLAGE)
    client.force_login(scorer)
    page = client.get(url("deal-edit", running_night, deal_pk=deal.pk)).content.decode()
    assert "Supprimer cette donne…" in page
    assert "les donnes suivantes avancent d'un numéro" in page
    response = client.post(url("deal-delete", running_night, deal_pk=deal.pk))
    assert response.status_code == 302
    assert Deal.objects.filter(pk=deal.pk).exists()
    client.post(url("deal-delete", running_night, deal_pk=deal.pk), {"confirm": "1"})
    assert not Deal.objects.filter(pk=deal.pk).exists()


def test_a_correction_made_meanwhile_by_someone_else_is_not_overwritten_409(
    client, running_night, scorer, club_admin
):
    poule = table_of(running_night, 4)
    deal = scoring_services.deal_record(poule, EMBALLAGE)
    client.force_login(scorer)
    page = client.get(url("deal-edit", running_night, deal_pk=deal.pk)).content.decode()
    version = page.split('name="version" value="', 1)[1].split('"', 1)[0]
    # Another scorer corrects the deal while this one's form is open.
    scoring_services.deal_correct(deal, {**EMBALLAGE, "tricks": 7}, by=club_admin)
    response = client.post(
        url("deal-edit", running_night, deal_pk=deal.pk),
        {**deal_post(poule, SOLO), "version": version},
    )
    assert response.status_code == 409
    assert "a été corrigée par quelqu" in response.content.decode()
    deal.refresh_from_db()
    assert deal.data["tricks"] == 7
    # Saved again from the page that says so, the correction goes through.
    fresh = response.content.decode().split('name="version" value="', 1)[1].split('"', 1)[0]
    client.post(
        url("deal-edit", running_night, deal_pk=deal.pk),
        {**deal_post(poule, SOLO), "version": fresh},
    )
    deal.refresh_from_db()
    assert deal.data == SOLO


def test_the_shared_blank_form_names_each_tables_own_players_escaped(client, running_night, scorer):
    four, five = table_of(running_night, 4), table_of(running_night, 5)
    player = four.seats.get(number=2).player
    player.display_name = "Zoé <b>& Cie"
    player.save()
    client.force_login(scorer)
    first = client.get(url("sheet", running_night, poule_pk=four.pk)).content.decode()
    assert "Zoé &lt;b&gt;&amp; Cie" in first and "<b>& Cie" not in first
    assert "\u27e6" not in first  # no stand-in left
    # Another table gets its own names, never the first one's.
    other = client.get(url("sheet", running_night, poule_pk=five.pk)).content.decode()
    assert "Zoé" not in other
    names = [seat.player.display_name for seat in five.seats.all()]
    assert all(name in other for name in names)


# -- what the review found (sheet fixes)


def test_a_retry_after_the_night_closed_is_answered_as_recorded_not_lost(
    client, running_night, scorer
):
    """The answer to a deal was lost, then the night was closed: the phone's retry is told
    the deal is recorded (it leaves the phone), not refused."""
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    key = str(uuid.uuid4())
    post_deal(client, poule, EMBALLAGE, client_key=key, seen="0")
    scoring_services.tournament_close(
        running_night, unfinished_ok=True, send_results=False, rank_season=False
    )
    again = post_deal(client, poule, EMBALLAGE, client_key=key, seen="0")
    assert (again.status_code, again["X-Sheet-Result"]) == (200, "replayed")
    assert 'id="donne-1"' in again.content.decode()
    # The service alike; a new deal is still refused.
    running_night.refresh_from_db()
    poule.refresh_from_db()
    replayed = scoring_services.deal_record(poule, EMBALLAGE, client_key=uuid.UUID(key))
    assert replayed.replayed
    new = post_deal(client, poule, SOLO, client_key=str(uuid.uuid4()), seen="1")
    assert new.status_code == 403
    assert poule.deals.count() == 1


def test_the_deals_added_tonight_follow_the_deals_themselves(running_night):
    poule = table_of(running_night, 4)
    scoring_services.deals_record(poule, [EMBALLAGE] * 12)
    poule.refresh_from_db()
    # A pass saved with "plus longue" adds no deal to the count: it does not count.
    scoring_services.deal_record(poule, PASS, longer=True)
    poule.refresh_from_db()
    assert poule.extra_deals == 0
    # A 13th deal, then undone: the table is back at 12, the close check does not wait.
    extra = scoring_services.deal_record(poule, SOLO, longer=True)
    poule.refresh_from_db()
    assert poule.extra_deals == 1
    scoring_services.deal_delete(extra, last_only=True)
    poule.refresh_from_db()
    assert (poule.counted_deals, poule.extra_deals) == (12, 0)
    check = scoring_services.tournament_close_check(running_night)
    assert not any(
        (line.round, line.table) == (poule.round, poule.table) for line in check.unfinished
    )


def test_a_correction_does_not_take_a_table_past_its_deal_count(running_night):
    poule = table_of(running_night, 4)
    scoring_services.deals_record(poule, [EMBALLAGE] * 12 + [PASS])
    passed = poule.deals.get(position=13)
    with pytest.raises(ValidationError, match="ferait 13 donnes"):
        scoring_services.deal_correct(passed, SOLO)
    poule.refresh_from_db()
    assert (poule.counted_deals, poule.extra_deals) == (12, 0)
    assert poule.deals.get(position=13).data == PASS
    # A deal corrected into a pass brings the deals added tonight back down.
    scoring_services.deal_record(poule, SOLO, longer=True)
    poule.refresh_from_db()
    assert poule.extra_deals == 1
    scoring_services.deal_correct(poule.deals.get(position=14), PASS)
    poule.refresh_from_db()
    assert (poule.counted_deals, poule.extra_deals) == (12, 0)


def test_no_undo_in_one_tap_once_the_night_is_closed(client, running_night, club_admin):
    poule = table_of(running_night, 4)
    last = scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.tournament_close(
        running_night, unfinished_ok=True, send_results=False, rank_season=False
    )
    client.force_login(club_admin)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    assert 'class="last-deal" data-undo' not in page
    response = client.post(
        url("sheet-undo", running_night, poule_pk=poule.pk),
        {"deal": last.pk},
        HTTP_HX_REQUEST="true",
    )
    assert (response.status_code, response["X-Sheet-Result"]) == (409, "refused")
    assert "ne s'annule plus d'un geste" in response.context["problem"]
    assert "La soirée est clôturée" in response.content.decode()
    assert poule.deals.count() == 1
    # The confirmed removal remains.
    client.post(url("deal-delete", running_night, deal_pk=last.pk), {"confirm": "1"})
    assert poule.deals.count() == 0


def test_a_csrf_failure_is_the_sites_page_in_words_that_the_script_recognises(
    running_night, scorer
):
    poule = table_of(running_night, 4)
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(scorer)
    response = client.post(
        url("sheet", running_night, poule_pk=poule.pk), deal_post(poule, EMBALLAGE)
    )
    page = response.content.decode()
    assert response.status_code == 403
    assert "data-csrf-failure" in page and "Votre session a changé" in page
    assert "<style" not in page  # Django's own page has an inline style the CSP refuses
    assert poule.deals.count() == 0


def test_the_same_deal_sent_twice_at_once_is_answered_as_replayed_on_sqlite(
    client, running_night, scorer, monkeypatch
):
    """Two identical requests at once: the second's insert meets the key's constraint (SQLite
    does not lock rows); the service answers it as the replay it is, not a 500."""
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    record = deals_service.deals_record

    def the_other_request_first(*args, **kwargs):
        record(*args, **kwargs)  # the twin request, a moment earlier
        raise IntegrityError("UNIQUE constraint failed: deal_client_key_once_per_poule")

    monkeypatch.setattr(deals_service, "deals_record", the_other_request_first)
    response = post_deal(client, poule, EMBALLAGE, client_key=str(uuid.uuid4()), seen="0")
    assert (response.status_code, response["X-Sheet-Result"]) == (200, "replayed")
    assert poule.deals.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_twice_at_once_is_stored_once_on_postgresql(running_night, scorer):
    """Real concurrency: two threads post the same deal with the same key at the same time."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite serialises the two requests")
    poule = table_of(running_night, 4)
    key = str(uuid.uuid4())
    start = threading.Barrier(2)
    answers: list[tuple[int, str]] = []

    def send() -> None:
        client = Client()
        client.force_login(scorer)
        start.wait()
        try:
            response = post_deal(client, poule, EMBALLAGE, client_key=key, seen="0")
            answers.append((response.status_code, response["X-Sheet-Result"]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [(200, "recorded"), (200, "replayed")]
    assert poule.deals.count() == 1


def test_the_sheet_tells_the_phone_who_deals_and_when_the_dealer_stays(
    client, running_night, scorer
):
    poule = table_of(running_night, 5)
    scoring_services.deal_record(poule, {**SOLO, "declarers": ["2"]})
    client.force_login(scorer)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    assert 'data-seat-count="5"' in page and 'data-mort-at="5"' in page
    assert 'data-dealer="2"' in page and 'data-uncounted="pass"' in page
    assert 'data-next-number="2"' in page


# A phone passed from one scorer to another (games/views/sheet.py): each deal the phone's
# script sends names the login it was typed under (the page's login stamp, infra/login_stamp.py),
# and a deal sent under another login is refused in words (403), never recorded under the
# wrong name. The script's side (set aside, cleared at logout) is tests/e2e/test_offline.py's.


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stamp_of(client: Client, poule) -> str:
    return client.get(url("sheet", poule.tournament, poule_pk=poule.pk))["X-Viewer"]


@pytest.fixture
def other_scorer(club):
    return persona(club, "deuxieme-marqueur", Membership.Role.SCORER)


def test_the_sheet_names_its_viewer_on_the_sheet_and_in_the_deal_form(running_night, scorer):
    poule = table_of(running_night, 4)
    response = signed_in(scorer).get(url("sheet", running_night, poule_pk=poule.pk))
    page = response.content.decode()
    stamp = response["X-Viewer"]
    assert re.search(r'<div id="sheet"[^>]* data-viewer="' + stamp + '"', page)
    assert f'<input type="hidden" name="viewer" value="{stamp}">' in page
    assert f'data-viewer="{stamp}"' in page.split("<body", 1)[1].split(">", 1)[0]


def test_a_deal_typed_under_another_login_is_refused_in_words_and_not_recorded(
    running_night, scorer, other_scorer
):
    poule = table_of(running_night, 4)
    first = stamp_of(signed_in(scorer), poule)
    second = signed_in(other_scorer)

    response = post_deal(
        second,
        poule,
        SOLO,
        client_key="6f1d0c2e-9c1b-4c53-9a51-0c1f2b3d4e5f",
        seen="0",
        viewer=first,
    )

    assert (response.status_code, response["X-Sheet-Result"]) == (403, "other-login")
    page = response.content.decode()
    assert "notée sous une autre connexion que la vôtre" in page
    # The sheet as it is for the login that sent it: his viewer, his (blank) form.
    assert f'data-viewer="{stamp_of(second, poule)}"' in page
    assert 'name="viewer"' in page
    assert poule.deals.count() == 0


def test_a_form_of_another_login_posted_without_the_script_is_refused_too(
    running_night, scorer, other_scorer
):
    poule = table_of(running_night, 4)
    first = stamp_of(signed_in(scorer), poule)

    response = signed_in(other_scorer).post(
        url("sheet", running_night, poule_pk=poule.pk),
        {**deal_post(poule, SOLO), "viewer": first},
    )

    assert response.status_code == 403
    assert "notée sous une autre connexion que la vôtre" in response.content.decode()
    assert poule.deals.count() == 0


def test_a_deal_sent_under_the_login_that_typed_it_is_recorded_by_him(
    running_night, scorer, other_scorer
):
    poule = table_of(running_night, 4)
    second = signed_in(other_scorer)

    response = post_deal(second, poule, SOLO, seen="0", viewer=stamp_of(second, poule))
    # A page of before the stamp (no viewer named) is the sending login's, as it was.
    older = post_deal(second, poule, SOLO, seen="1")

    assert response["X-Sheet-Result"] == "recorded"
    assert older["X-Sheet-Result"] == "recorded"
    assert list(poule.deals.values_list("recorded_by", flat=True)) == [other_scorer.pk] * 2


def test_a_deal_of_another_login_shows_no_sheet_to_a_member_of_another_club(running_night):
    # The refusal draws the sheet for this login: only for whom may read it.
    stranger = persona(ClubFactory(slug="autre-club"), "etranger", Membership.Role.SCORER)
    poule = table_of(running_night, 4)
    names = [seat.player.display_name for seat in poule.seats.select_related("player")]

    response = post_deal(signed_in(stranger), poule, SOLO, viewer="un-autre-telephone")

    assert response.status_code in (403, 404)
    assert not any(name in response.content.decode() for name in names)
    assert not poule.deals.exists()
