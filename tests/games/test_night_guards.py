"""The night's traps closed: closing, redrawing and reopening say what will happen and act
only once confirmed; rounds are drawn in order; closing is offered once round 1 is drawn and
refused without a drawn round; a closed night with unfinished tables only when confirmed."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import services as games_services
from games.models import Poule, RoundDraw, Tournament
from scoring import services as scoring_services
from scoring.models import TournamentStanding
from tests.conftest import DRAW_SEED

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(
        f"games:{name}", kwargs={"slug": tournament.club.slug, "pk": tournament.pk, **kwargs}
    )


def tables(tournament: Tournament, round: int = 1) -> dict[int, Poule]:
    """The round's poules by their number of seats (a table of 4 and a table of 5)."""
    return {p.seats.count(): p for p in tournament.poules.filter(round=round)}


@pytest.fixture
def played(running_night: Tournament) -> Tournament:
    """Round 1 under way: 2 deals at the table of 4, 1 at the table of 5."""
    by_size = tables(running_night)
    scoring_services.deals_record(by_size[4], [EMBALLAGE, SOLO])
    scoring_services.deal_record(by_size[5], EMBALLAGE)
    return running_night


@pytest.fixture
def present_tonight(tonight: Tournament, club_members) -> Tournament:
    """Nine present, no round drawn yet."""
    games_services.presence_set(tonight, club_members[:9])
    return tonight


# --------------------------------------------------------------------------------------------
# Rounds drawn in order


def test_round_3_is_refused_while_round_2_is_not_drawn(running_night):
    with pytest.raises(ValidationError) as refused:
        scoring_services.round_draw(running_night, 3, seed=1)

    assert "Le tour 2 n'est pas encore tiré" in " ".join(refused.value.messages)
    assert not Poule.objects.filter(tournament=running_night, round=3).exists()
    assert not RoundDraw.objects.filter(tournament=running_night, round=3).exists()
    scoring_services.round_draw(running_night, 2, seed=1)
    scoring_services.round_draw(running_night, 3, seed=1)
    assert Poule.objects.filter(tournament=running_night, round=3).exists()


def test_round_2_is_refused_before_round_1(present_tonight):
    with pytest.raises(ValidationError, match="tirez d'abord le tour 1"):
        scoring_services.round_draw(present_tonight, 2, seed=1)


def test_the_night_page_offers_only_the_next_round(client, running_night, scorer):
    client.force_login(scorer)
    page = client.get(url("tournament", running_night)).content.decode()

    assert url("draw", running_night, round=2) in page
    assert url("draw", running_night, round=3) not in page
    assert "tirez d'abord le tour 2" in page


def test_drawing_round_3_from_a_forged_form_says_why(client, running_night, scorer):
    client.force_login(scorer)
    response = client.post(url("draw", running_night, round=3), follow=True)

    assert "Le tour 2 n&#x27;est pas encore tiré" in response.content.decode()
    assert not Poule.objects.filter(tournament=running_night, round=3).exists()


# --------------------------------------------------------------------------------------------
# Redrawing a round


def test_redrawing_a_round_asks_first_and_a_post_without_confirm_changes_nothing(
    client, running_night, scorer
):
    before = set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True))
    client.force_login(scorer)

    response = client.post(url("draw", running_night, round=1), {"seed": "77"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "Les 2 tables du tour 1 seront tirées à nouveau" in page
    assert 'name="confirm" value="1"' in page
    assert 'name="seed" value="77"' in page  # the seed typed is kept for the confirmed POST
    assert set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True)) == (
        before
    )
    assert RoundDraw.objects.get(tournament=running_night, round=1).seed == DRAW_SEED


def test_a_confirmed_redraw_draws_the_round_again(client, running_night, scorer):
    before = set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True))
    client.force_login(scorer)

    response = client.post(url("draw", running_night, round=1), {"seed": "77", "confirm": "1"})

    assert response.status_code == 302
    assert RoundDraw.objects.get(tournament=running_night, round=1).seed == 77
    after = set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True))
    assert after and not after & before


def test_the_first_draw_of_a_round_needs_no_confirmation(client, present_tonight, scorer):
    client.force_login(scorer)

    assert client.post(url("draw", present_tonight, round=1)).status_code == 302
    assert Poule.objects.filter(tournament=present_tonight, round=1).count() == 2


def test_a_dealt_round_is_not_asked_about_but_refused(client, played, scorer):
    client.force_login(scorer)

    response = client.post(url("draw", played, round=1), follow=True)

    assert "déjà des donnes encodées" in response.content.decode()


# --------------------------------------------------------------------------------------------
# Closing the night


def test_closing_is_not_offered_before_round_1_is_drawn(client, present_tonight, scorer):
    client.force_login(scorer)

    page = client.get(url("tournament", present_tonight)).content.decode()

    assert url("close", present_tonight) not in page
    assert "Clôturer la soirée" not in page


def test_closing_is_offered_once_round_1_is_drawn(client, running_night, scorer):
    client.force_login(scorer)

    assert (
        url("close", running_night) in client.get(url("tournament", running_night)).content.decode()
    )


def test_a_night_without_a_drawn_round_cannot_be_closed(present_tonight):
    with pytest.raises(ValidationError, match="Aucun tour n'est tiré"):
        scoring_services.tournament_close(present_tonight, unfinished_ok=True)
    with pytest.raises(ValidationError, match="Aucun tour n'est tiré"):
        scoring_services.tournament_close_check(present_tonight)

    present_tonight.refresh_from_db()
    assert present_tonight.status == Tournament.Status.PLANNED


def test_closing_a_night_without_a_drawn_round_from_its_page_says_why(
    client, present_tonight, scorer
):
    client.force_login(scorer)

    response = client.post(url("close", present_tonight), {"confirm": "1"}, follow=True)

    assert "Aucun tour n&#x27;est tiré" in response.content.decode()
    present_tonight.refresh_from_db()
    assert present_tonight.status == Tournament.Status.PLANNED


def test_the_service_refuses_unfinished_tables_unless_confirmed(played):
    with pytest.raises(ValidationError) as refused:
        scoring_services.tournament_close(played)

    text = " ".join(refused.value.messages)
    assert "2 tables inachevées : tour 1 table" in text
    assert "2/12" in text and "1/15" in text
    assert "tours 2, 3 pas tirés" in text
    played.refresh_from_db()
    assert played.status == Tournament.Status.RUNNING

    scoring_services.tournament_close(played, unfinished_ok=True)
    played.refresh_from_db()
    assert played.status == Tournament.Status.CLOSED


def test_the_close_check_lists_each_unfinished_table_and_undrawn_round(played):
    check = scoring_services.tournament_close_check(played)
    by_size = tables(played)

    assert [(t.round, t.table, t.played, t.expected) for t in check.unfinished] == sorted(
        [(1, by_size[4].table, 2, 12), (1, by_size[5].table, 1, 15)]
    )
    assert check.undrawn_rounds == [2, 3]
    assert not check.finished


def test_a_night_played_to_the_end_closes_without_confirmation(club, season, point_table):
    """One round, two tables of 4 played to their 12 deals: nothing is left unplayed."""
    club.deals_per_poule_4 = 2
    club.save()
    night = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game="belgian_whist",
        point_table=point_table,
        rounds=1,
    )
    players = [
        games_services.player_add_to_tournament(night, f"Joueur {n}", guest=True) for n in range(8)
    ]
    assert len(players) == 8
    scoring_services.round_draw(night, 1, seed=5)
    for poule in night.poules.all():
        scoring_services.deals_record(poule, [EMBALLAGE, SOLO])

    assert scoring_services.tournament_close_check(night).finished
    scoring_services.tournament_close(night)
    night.refresh_from_db()
    assert night.status == Tournament.Status.CLOSED


def test_closing_from_the_page_asks_first_listing_tables_and_e_mails(
    client, played, scorer, django_capture_on_commit_callbacks
):
    # Nine players in tonight's standings; two of them will not get the e-mail.
    players = [line.player for line in TournamentStanding.objects.filter(tournament=played)]
    for number, player in enumerate(players):
        player.email = f"joueur{number}@example.org"
        player.result_emails = number != 0  # opted out
        if number == 1:
            player.email = ""  # no address at all
        player.save()
    client.force_login(scorer)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("close", played))

    assert response.status_code == 200
    page = response.content.decode()
    assert "2 tables inachevées : tour 1 table" in page
    assert "2/12" in page and "1/15" in page
    assert "tours 2, 3 pas tirés" in page
    assert "les résultats seront envoyés par e-mail à 7 joueurs".lower() in page.lower()
    assert 'name="confirm" value="1"' in page
    played.refresh_from_db()
    assert played.status == Tournament.Status.RUNNING
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("close", played), {"confirm": "1"})

    assert response.status_code == 302
    played.refresh_from_db()
    assert played.status == Tournament.Status.CLOSED
    assert len(mail.outbox) == 7  # exactly as many as the confirmation said


def test_the_confirmation_counts_only_players_not_yet_e_mailed(
    client, played, scorer, club_admin, django_capture_on_commit_callbacks
):
    for number, line in enumerate(TournamentStanding.objects.filter(tournament=played)):
        line.player.email = f"joueur{number}@example.org"
        line.player.save()
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(played, unfinished_ok=True)
    assert len(mail.outbox) == 9
    scoring_services.tournament_reopen(played)
    client.force_login(scorer)

    page = client.post(url("close", played)).content.decode()

    assert "Aucun joueur ne recevra de résultats par e-mail" in page


# --------------------------------------------------------------------------------------------
# Reopening the night


def test_reopening_asks_first_and_a_post_without_confirm_changes_nothing(
    client, played, club_admin
):
    scoring_services.tournament_close(played, unfinished_ok=True)
    client.force_login(club_admin)

    response = client.post(url("reopen", played))

    assert response.status_code == 200
    page = response.content.decode()
    assert "ne comptera plus dans le classement de la saison" in page
    assert 'name="confirm" value="1"' in page
    played.refresh_from_db()
    assert played.status == Tournament.Status.CLOSED

    assert client.post(url("reopen", played), {"confirm": "1"}).status_code == 302
    played.refresh_from_db()
    assert played.status == Tournament.Status.RUNNING


def test_reopening_a_running_night_is_refused_without_a_confirmation_step(
    client, running_night, club_admin
):
    client.force_login(club_admin)

    response = client.post(url("reopen", running_night), follow=True)

    assert "Seule une soirée clôturée peut être rouverte" in response.content.decode()
