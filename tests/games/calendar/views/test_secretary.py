"""Replies a secretary can work with: who has not answered, a reminder to just them (once per
press), an answer recorded by hand and the words to share with a member without an address,
a comment and guests on a reply (counted against the places, bounded), a waiting member's
place in line, the venue in the e-mails, and the pages' words."""

from __future__ import annotations

import datetime
import random
import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from club.models import Membership
from games import calendar
from games.calendar.mailing import promoted_send, reply_url
from games.demo import demo_calendar
from games.models import PlannedNight, Reply
from games.tasks import calendar_nudge_email
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory
from tests.games.calendar_days import next_friday, said

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(club) -> dict:
    """Who answered, who did not (with an address, without one, reminders off)."""
    return {
        "yes": PlayerFactory(club=club, email="oui@example.org", display_name="Albert Oui"),
        "silent": PlayerFactory(club=club, email="anne@example.org", display_name="Anne Muette"),
        "no_address": PlayerFactory(club=club, display_name="Bruno Sans-Adresse"),
        "off": PlayerFactory(club=club, email="off@example.org", display_name="Chloé Coupée"),
    }


@pytest.fixture
def answered(night, people) -> PlannedNight:
    calendar.reply_set(night, people["yes"], "yes")
    calendar.member_reminders_set(people["off"], False)
    return night


# Who has not answered, and the reminder to just them


def test_the_replies_page_lists_who_has_not_answered(client, club, club_admin, answered, people):
    client.force_login(club_admin)
    page = client.get(reverse("games:calendar-replies", args=[club.slug, answered.pk]))
    silent = page.content.decode().split('id="sans-reponse"')[1].split("</section>")[0]
    assert "Anne Muette" in silent and "Bruno Sans-Adresse" in silent
    assert "Albert Oui" not in silent
    assert "pas d'e-mail" in silent and "rappels coupés" in silent
    # The persona of the fixture (the club's president) has not answered either.
    assert "Relancer par e-mail les 2 membres sans réponse" in silent


def test_the_reminder_to_the_silent_goes_to_just_them_once_per_press(
    client, club, club_admin, answered, people, django_capture_on_commit_callbacks
):
    client.force_login(club_admin)
    url = reverse("games:calendar-remind", args=[club.slug, answered.pk])
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, {"press": "1"})
    assert said(first) == ["Rappel envoyé aux 2 membres sans réponse."]
    reached = sorted(m.to[0] for m in mail.outbox)
    assert reached == sorted(["anne@example.org", club_admin.email])
    assert "nous attendons votre réponse" in mail.outbox[0].subject

    # The same press again (a double tap, the form posted twice), and the task run again.
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(url, {"press": "1"})
    assert said(again)[-1] == "Ce rappel est déjà parti."
    assert calendar_nudge_email(answered.pk) == 0
    assert len(mail.outbox) == 2

    # A second press, once Anne has answered: only the one still silent.
    calendar.reply_set(answered, people["silent"], "maybe")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"press": "2"})
    assert [m.to for m in mail.outbox] == [[club_admin.email]]


def test_a_stale_or_late_reminder_is_refused_in_words(club, answered):
    with pytest.raises(ValidationError, match="rechargez"):
        calendar.silent_remind(answered, 5)
    after = calendar.deadline(answered) + datetime.timedelta(minutes=1)
    with pytest.raises(ValidationError, match="closes"):
        calendar.silent_remind(answered, 1, now=after)
    assert PlannedNight.objects.get(pk=answered.pk).nudges == 0


def test_nobody_silent_with_an_address_is_said_not_sent(club, night):
    lone = ClubFactory(name="Cercle sans adresse")
    PlayerFactory(club=lone, display_name="Sans Adresse")
    quiet = calendar.night_plan(lone, next_friday(), calendar.NightPlan())
    with pytest.raises(ValidationError, match="envoyez-leur leur lien"):
        calendar.silent_remind(quiet, 1)


# A member without an address


def test_the_secretary_records_an_answer_for_a_member_by_hand(
    client, club, club_admin, answered, people
):
    client.force_login(club_admin)
    url = reverse("games:calendar-record", args=[club.slug, answered.pk])
    response = client.post(
        url,
        {
            "record-player": people["no_address"].pk,
            "record-answer": "yes",
            "record-guests": "1",
            "record-comment": "dit au téléphone",
        },
    )
    assert response.status_code == 302
    assert said(response) == ["Réponse de Bruno Sans-Adresse enregistrée."]
    reply = Reply.objects.get(night=answered, player=people["no_address"])
    assert (reply.answer, reply.guests, reply.comment) == ("yes", 1, "dit au téléphone")
    # The one-tap buttons of the list of the silent send the answer alone.
    client.post(url, {"record-player": people["silent"].pk, "record-answer": "no"})
    assert Reply.objects.get(night=answered, player=people["silent"]).answer == "no"


def test_the_secretary_cannot_answer_for_a_member_of_another_club(client, club, club_admin, night):
    stranger = PlayerFactory(club=ClubFactory(name="Cercle voisin"))
    client.force_login(club_admin)
    response = client.post(
        reverse("games:calendar-record", args=[club.slug, night.pk]),
        {"record-player": stranger.pk, "record-answer": "yes"},
    )
    assert response.status_code == 400
    assert "Choisissez un membre du club." in response.content.decode()
    assert not Reply.objects.exists()


def test_the_message_for_a_member_carries_her_own_link(client, club, club_admin, answered, people):
    client.force_login(club_admin)
    page = client.get(reverse("games:calendar-replies", args=[club.slug, answered.pk]))
    page = page.content.decode()
    bruno = people["no_address"]
    message = re.search(rf'id="message-{bruno.pk}"[^>]*>([^<]*)</textarea>', page).group(1)
    assert message.startswith("Bonjour Bruno Sans-Adresse,")
    assert "Salle Saint-Roch" in message
    token = re.search(r"/calendrier/reponse/([^/\s]+)/", message).group(1)
    assert calendar.reply_link_read(token) == (answered, bruno)
    group = re.search(r'id="group-message"[^>]*>([^<]*)</textarea>', page).group(1)
    assert "/calendrier/" in group and "reponse" not in group
    assert f"#soiree-{answered.pk}" in group
    assert 'data-copy="group-message"' in page


# Who may do the secretary's work


@pytest.mark.parametrize(
    "name", ["calendar-record", "calendar-remind", "calendar-delete", "calendar-change"]
)
def test_a_plain_member_and_another_clubs_admin_are_refused(client, club, member, night, name):
    other_admin = persona(ClubFactory(name="Whist Club Liège"), "admin-liege", "admin")
    url = reverse(f"games:{name}", args=[club.slug, night.pk])
    body = {"record-player": member.player.pk, "record-answer": "yes", "press": "1"}
    client.force_login(member)
    assert client.post(url, body).status_code == 403
    client.force_login(other_admin)
    assert client.post(url, body).status_code == 404
    assert not Reply.objects.exists()
    assert PlannedNight.objects.get(pk=night.pk).nudges == 0


# A comment and guests


def test_guests_take_places_and_the_line_keeps_its_order(club, django_capture_on_commit_callbacks):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(cap=4))
    anne, bruno, chloe = (PlayerFactory(club=club, email=f"{n}@example.org") for n in "abc")
    calendar.reply_set(night, anne, "yes", guests=2)
    bruno_reply = calendar.reply_set(night, bruno, "yes", guests=1)
    # Chloé alone would fit the last place, but Bruno waits before her.
    chloe_reply = calendar.reply_set(night, chloe, "yes")
    assert bruno_reply.waiting and chloe_reply.waiting
    assert calendar.seats_taken(night) == 3

    with django_capture_on_commit_callbacks(execute=True):
        calendar.reply_set(night, anne, "yes", guests=0)
    assert not Reply.objects.get(pk=bruno_reply.pk).waiting
    assert not Reply.objects.get(pk=chloe_reply.pk).waiting
    assert calendar.seats_taken(night) == 4
    assert sorted(m.to[0] for m in mail.outbox) == ["b@example.org", "c@example.org"]


def test_more_guests_on_a_place_held_must_fit_or_nothing_changes(club):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(cap=4))
    anne, bruno = PlayerFactory(club=club), PlayerFactory(club=club)
    calendar.reply_set(night, anne, "yes", guests=1)
    calendar.reply_set(night, bruno, "yes")
    with pytest.raises(ValidationError) as refused:
        calendar.reply_set(night, bruno, "yes", guests=2)
    assert refused.value.messages == [
        "Plus assez de places pour vos invités : il en faut 3, il en reste 2."
    ]
    reply = Reply.objects.get(night=night, player=bruno)
    assert (reply.guests, reply.waiting) == (0, False)


@pytest.mark.parametrize("guests", [4, 12, -1])
def test_guests_are_bounded_and_refused_in_words_beyond(club, night, member, guests):
    with pytest.raises(ValidationError) as refused:
        calendar.reply_set(night, member.player, "yes", guests=guests)
    assert refused.value.messages == ["Au plus 3 invités par réponse."]
    assert not Reply.objects.exists()


def test_the_page_refuses_too_many_guests_in_words(client, club, night, member):
    client.force_login(member)
    response = client.post(
        reverse("games:calendar-answer", args=[club.slug, night.pk]),
        {"answer": "yes", "guests": "9"},
        follow=True,
    )
    assert "Au plus 3 invités par réponse." in response.content.decode()
    assert not Reply.objects.exists()


def test_a_maybe_or_a_no_brings_no_guest_and_an_answer_alone_keeps_the_comment(club, night, member):
    player = member.player
    calendar.reply_set(night, player, "yes", guests=2, comment="  vers   21 h ")
    reply = calendar.reply_set(night, player, "maybe")
    assert (reply.guests, reply.comment) == (0, "vers 21 h")


def test_the_secretary_sees_each_comment_and_guests(client, club, club_admin, night, member):
    calendar.reply_set(night, member.player, "yes", guests=1, comment="je viendrai vers 21 h")
    client.force_login(club_admin)
    page = client.get(reverse("games:calendar-replies", args=[club.slug, night.pk]))
    page = page.content.decode()
    assert f"{member.player.display_name} +1" in page
    assert "je viendrai vers 21 h" in page and "(+1 invité)" in page


def test_the_member_answers_with_guests_and_a_comment_from_her_link(client, night, member):
    path = urlsplit(reply_url(night, member.player)).path
    client.post(path, {"answer": "yes", "guests": "2", "comment": "avec mes cousins"})
    reply = Reply.objects.get(night=night, player=member.player)
    assert (reply.answer, reply.guests, reply.comment) == ("yes", 2, "avec mes cousins")
    page = client.get(path).content.decode()
    assert "avec 2 invités" in page and "avec mes cousins" in page


# A waiting member's place in line


def test_a_waiting_member_sees_her_place_in_line(client, club):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(cap=4))
    for _ in range(5):
        calendar.reply_set(night, PlayerFactory(club=club), "yes")
    user = persona(club, "anne", Membership.Role.MEMBER)
    calendar.reply_set(night, user.player, "yes")
    client.force_login(user)
    page = client.get(reverse("games:calendar", args=[club.slug])).content.decode()
    assert "liste d'attente, place 2" in page
    link = urlsplit(reply_url(night, user.player)).path
    assert "liste d'attente, place 2" in client.get(link).content.decode()


# The e-mails and the words


def test_the_place_for_you_email_names_the_venue(club):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(place="Salle Saint-Roch"))
    anne = PlayerFactory(club=club, email="anne@example.org")
    reply = calendar.reply_set(night, anne, "yes")
    Reply.objects.filter(pk=reply.pk).update(promoted=timezone.now())
    assert promoted_send(reply.pk) == 1
    (message,) = mail.outbox
    assert "Salle Saint-Roch" in message.body
    assert "Salle Saint-Roch" in message.alternatives[0][0]


def test_the_places_left_are_counted_in_words(client, club, member):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(cap=12))
    calendar.reply_set(night, member.player, "yes")
    page = client.get(urlsplit(reply_url(night, member.player)).path).content.decode()
    assert "1 place prise sur 12" in page and "1 inscrits" not in page


def test_a_first_private_address_is_not_said_to_replace_an_old_one(client, member):
    client.force_login(member)
    first = client.post(reverse("my-calendar-renew"))
    assert said(first) == ["L'adresse de votre calendrier privé est prête."]
    again = client.post(reverse("my-calendar-renew"))
    assert said(again)[-1] == "Nouvelle adresse du calendrier privé : l'ancienne ne marche plus."


def test_a_future_night_without_a_reply_says_so_in_words(client, club, night, member):
    page = client.get(reverse("games:calendar", args=[club.slug])).content.decode()
    assert "Pas encore de réponse" in page and "Aucun joueur présent" not in page
    calendar.reply_set(night, member.player, "no")
    page = client.get(reverse("games:calendar", args=[club.slug])).content.decode()
    assert "Personne n&#x27;a encore dit oui" in page


def test_the_demo_nights_have_no_cap_the_club_never_set(club, club_members):
    assert demo_calendar(club, random.Random(7), timezone.localdate()) == 8
    assert set(PlannedNight.objects.filter(club=club).values_list("cap", flat=True)) == {None}


# The waiting list, named as such and shown only when someone waits


def test_an_empty_waiting_list_shows_nothing(client, club, club_admin, answered):
    client.force_login(club_admin)
    page = client.get(reverse("games:calendar-replies", args=[club.slug, answered.pk]))
    html = page.content.decode()
    assert "Liste d&#x27;attente" not in html and "Liste d'attente" not in html
    assert " en attente ·" not in html and "<ol>" not in html


def test_the_manage_page_names_its_column_the_waiting_list(client, club, club_admin, answered):
    client.force_login(club_admin)
    page = client.get(reverse("games:calendar-manage", args=[club.slug]))
    html = page.content.decode()
    assert "Liste d'attente</th>" in html
    assert ">En attente<" not in html
