"""Result e-mails: when a night is closed, each participant who has not opted out gets his
results, in his language, once."""

from __future__ import annotations

import logging
import smtplib

import pytest
from django.conf import settings
from django.core import mail
from django.core.mail.backends import locmem
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import translation

from club.models import Membership
from club.names import PUBLIC, name_shown
from games.mailing import tournament_results_send
from games.models import ResultEmail, Tournament
from games.tasks import tournament_results_email
from scoring import services as scoring_services
from scoring.models import PouleStanding, TournamentStanding
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


@pytest.fixture
def tournament(running_night: Tournament) -> Tournament:
    """Round 1 played at both tables; the nine participants chose how they get results."""
    tables = sorted(running_night.poules.all(), key=lambda poule: poule.seats.count())
    scoring_services.deals_record(tables[0], [EMBALLAGE, SOLO])  # the table of 4
    scoring_services.deal_record(tables[1], EMBALLAGE)  # the table of 5
    return running_night


@pytest.fixture
def participants(tournament: Tournament) -> dict:
    """Who is who among the night's players, with the addresses their results go to."""
    players = sorted(
        (line.player for line in TournamentStanding.objects.filter(tournament=tournament)),
        key=lambda player: player.pk,
    )
    assert len(players) == 9
    for player in players:
        player.email = f"{player.first_name.lower()}@example.org"
    account_only, opted_out, no_address, dutch = players[1:5]
    account_only.email = ""
    account_only.user = UserFactory(username="compte", email="compte@example.org")
    opted_out.result_emails = False
    no_address.email = ""
    dutch.language = "nl"
    for player in players:
        player.save()
    return {
        "players": players,
        "account_only": account_only,
        "opted_out": opted_out,
        "no_address": no_address,
        "dutch": dutch,
        "french": players[0],
    }


def recipients() -> list[str]:
    return sorted(address for message in mail.outbox for address in message.to)


def message_to(address: str):
    return next(message for message in mail.outbox if message.to == [address])


def expected_addresses(participants: dict) -> list[str]:
    skipped = {participants["opted_out"], participants["no_address"]}
    return sorted(
        player.email or player.user.email
        for player in participants["players"]
        if player not in skipped
    )


def test_closing_a_night_emails_each_participant_with_an_address_who_did_not_opt_out(
    tournament, participants, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(tournament, unfinished_ok=True)

    assert recipients() == expected_addresses(participants)
    assert "compte@example.org" in recipients()  # no address of his own: his account's
    assert ResultEmail.objects.filter(tournament=tournament).count() == 7


def test_a_player_who_opted_out_gets_nothing(
    tournament, participants, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(tournament, unfinished_ok=True)

    assert participants["opted_out"].email not in recipients()
    assert not ResultEmail.objects.filter(player=participants["opted_out"]).exists()


def test_closing_the_night_from_its_page_sends_the_emails(
    client, tournament, participants, scorer, django_capture_on_commit_callbacks
):
    client.force_login(scorer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("games:close", kwargs={"slug": "rcwhist", "pk": tournament.pk}),
            {"confirm": "1"},
        )

    assert response.status_code == 302
    assert recipients() == expected_addresses(participants)


def test_sending_the_results_again_sends_nothing_twice(
    tournament, participants, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(tournament, unfinished_ok=True)
    sent = len(mail.outbox)

    assert tournament_results_send(tournament) == 0
    assert tournament_results_email.delay(tournament.pk).get() == 0
    assert len(mail.outbox) == sent == 7


def test_the_email_gives_his_rank_points_poules_the_winners_and_a_link_to_his_results(
    tournament, participants
):
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    tournament_results_send(tournament)

    player = participants["french"]
    line = TournamentStanding.objects.get(tournament=tournament, player=player)
    poule_line = PouleStanding.objects.select_related("poule").get(
        poule__tournament=tournament, player=player
    )
    winners = TournamentStanding.objects.filter(tournament=tournament, rank=1).select_related(
        "player"
    )
    message = message_to(player.email)
    with translation.override("fr"):
        points = floatformat(line.tournament_points, "-2")
        poule_points = floatformat(poule_line.tournament_points, "-2")
    assert message.subject == "Vos résultats de la soirée du 14/03/2024"
    body = message.body
    assert f"Bonjour {player.display_name}," in body
    assert "Voici vos résultats de la soirée du 14 mars 2024 (RCWhist La Chevalerie)." in body
    assert f"Rang : {line.rank} sur 9 joueurs" in body
    assert f"Points de tournoi : {points}\n" in body
    assert f"Points de jeu : {line.game_points}\n" in body
    assert (
        f"Tour 1, table {poule_line.poule.table} : rang {poule_line.rank}" in body
        and f"{poule_points} pts de tournoi, {poule_line.game_points} points de jeu" in body
    )
    assert all(name_shown(winner.player, PUBLIC) in body for winner in winners)
    assert f"{settings.SITE_URL}{reverse('my-results')}" in body
    # Not published yet: the public results page would refuse him.
    assert reverse("games:results", kwargs={"slug": "rcwhist", "pk": tournament.pk}) not in body
    html, kind = message.alternatives[0]
    assert kind == "text/html" and f"Rang : {line.rank} sur 9 joueurs" in html


def test_each_participant_gets_the_email_in_his_own_language(tournament, participants):
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    tournament_results_send(tournament)

    dutch = participants["dutch"]
    line = TournamentStanding.objects.get(tournament=tournament, player=dutch)
    body = message_to(dutch.email).body
    assert "14 maart 2024" in body  # the date as the Dutch write it
    # "6e van 9 spelers": the rank as a Flemish reader writes it.
    assert f"{line.rank}e van " in body and f" {line.game_points}\n" in body
    assert "14 mars 2024" in message_to(participants["french"].email).body


def test_a_winner_chose_initials_his_club_reads_his_name_and_a_former_member_his_initials(
    tournament, participants
):
    """Each e-mail names the winner as its recipient may see him (``club.names``): his club's
    members by his name, a participant who left the club by his initials."""
    winner = TournamentStanding.objects.filter(tournament=tournament, rank=1).first().player
    winner.public_name = "initials"
    winner.save()
    others = [p for p in participants["players"] if p.pk != winner.pk and p.result_emails]
    member, former = [p for p in others if p.email][:2]
    Membership.objects.filter(player=former).update(
        end=tournament.date, status=Membership.Status.FORMER
    )
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    tournament_results_send(tournament)

    assert winner.display_name in message_to(member.email).body
    to_former = message_to(former.email).body
    assert winner.initials in to_former and winner.display_name not in to_former


def test_a_published_nights_email_links_to_its_results_page(tournament, participants):
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    scoring_services.tournament_publish(tournament)
    tournament_results_send(tournament)

    results = reverse("games:results", kwargs={"slug": "rcwhist", "pk": tournament.pk})
    assert f"{settings.SITE_URL}{results}" in message_to(participants["french"].email).body


def test_a_failing_address_does_not_stop_the_others_and_is_tried_again_next_time(
    tournament, participants, monkeypatch, caplog
):
    failing = participants["french"].email
    send_messages = locmem.EmailBackend.send_messages

    def refuse_one(backend, messages):
        if any(message.to == [failing] for message in messages):
            raise smtplib.SMTPRecipientsRefused({failing: (550, b"no such user")})
        return send_messages(backend, messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", refuse_one)
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    with caplog.at_level(logging.ERROR, logger="club.mailing.claimed"):
        assert tournament_results_send(tournament) == 6
    assert failing not in recipients()
    assert any(failing in record.getMessage() for record in caplog.records)
    assert not ResultEmail.objects.filter(email=failing).exists()

    monkeypatch.undo()
    assert tournament_results_send(tournament) == 1
    assert failing in recipients()


def test_a_named_nights_email_is_titled_with_its_name(tournament, participants):
    Tournament.objects.filter(pk=tournament.pk).update(name="Soirée de printemps")
    scoring_services.tournament_close(tournament, unfinished_ok=True)
    tournament_results_send(tournament)

    message = message_to(participants["french"].email)
    assert message.subject == "Vos résultats : Soirée de printemps (14/03/2024)"
    assert "Voici vos résultats de « Soirée de printemps », le 14 mars 2024" in message.body
