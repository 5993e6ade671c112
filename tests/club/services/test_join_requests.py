"""A newcomer finds a listed club on the home page and asks to join it; the club's admins are
e-mailed and answer from their club's pages: accepted, he is a member invited to open his
account; refused, nobody is added. Only the club's own admins may answer."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Club, Invitation, JoinRequest, Membership, Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

ASK = {"name": "Paul Renard", "email": "paul@example.org", "message": "Je joue depuis 10 ans."}


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def asked(client, club, club_admin, mailoutbox, django_capture_on_commit_callbacks):
    """Paul asks to join the club (listed, as every club already on the site is)."""
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("join-request", args=[club.slug]), ASK)
    assert response.url == reverse("club-detail", args=[club.slug])
    return JoinRequest.objects.get()


def test_a_newcomer_asks_to_join_and_the_clubs_admins_are_emailed(asked, club, mailoutbox):
    (told,) = mailoutbox
    assert told.to == ["president@example.org"]
    assert "Paul Renard demande à rejoindre" in told.subject
    assert "Je joue depuis 10 ans." in told.body
    assert f"/clubs/{club.slug}/gestion/demandes/" in told.body
    assert (asked.status, asked.email) == (JoinRequest.Status.PENDING, "paul@example.org")


def test_the_admin_accepts_paul_who_becomes_a_member_invited_to_open_his_account(
    client, asked, club, club_admin, mailoutbox
):
    client.force_login(club_admin)
    page = text(client.get(reverse("join-requests", args=[club.slug])))
    assert "Paul Renard" in page and "Je joue depuis 10 ans." in page

    client.post(reverse("join-request-decide", args=[club.slug, asked.pk, "accepter"]))

    paul = Player.objects.get(display_name="Paul Renard")
    assert Membership.objects.get(club=club, player=paul).role == Membership.Role.MEMBER
    assert Invitation.objects.get(player=paul).email == "paul@example.org"
    assert re.search(r"/compte/invitation/[^/\s]+/", mailoutbox[-1].body)
    asked.refresh_from_db()
    assert (asked.status, asked.player) == (JoinRequest.Status.ACCEPTED, paul)


def test_the_admin_refuses_and_nobody_is_added(client, asked, club, club_admin):
    client.force_login(club_admin)

    client.post(reverse("join-request-decide", args=[club.slug, asked.pk, "refuser"]))

    asked.refresh_from_db()
    assert asked.status == JoinRequest.Status.REFUSED
    assert not Player.objects.filter(display_name="Paul Renard").exists()


def test_a_request_answered_once_cannot_be_answered_again(client, asked, club, club_admin):
    client.force_login(club_admin)
    decide = reverse("join-request-decide", args=[club.slug, asked.pk, "refuser"])
    client.post(decide)

    response = client.post(
        reverse("join-request-decide", args=[club.slug, asked.pk, "accepter"]), follow=True
    )

    assert "a déjà reçu sa réponse" in text(response)
    assert not Player.objects.filter(display_name="Paul Renard").exists()


def test_a_member_cannot_accept_a_request(client, asked, club, member):
    client.force_login(member)

    response = client.post(reverse("join-request-decide", args=[club.slug, asked.pk, "accepter"]))

    assert response.status_code == 403
    assert client.get(reverse("join-requests", args=[club.slug])).status_code == 403
    assert JoinRequest.objects.get().status == JoinRequest.Status.PENDING


def test_another_clubs_admin_cannot_accept_a_request(client, asked, club):
    other = ClubFactory(name="Whist Club de Namur")
    admin = UserFactory(username="autre-president")
    PlayerFactory(user=admin, club=other, club__role=Membership.Role.ADMIN)
    client.force_login(admin)

    # Neither through this club's address, nor through his own club's.
    here = client.post(reverse("join-request-decide", args=[club.slug, asked.pk, "accepter"]))
    there = client.post(reverse("join-request-decide", args=[other.slug, asked.pk, "accepter"]))

    assert (here.status_code, there.status_code) == (404, 404)
    assert JoinRequest.objects.get().status == JoinRequest.Status.PENDING
    assert not Player.objects.filter(display_name="Paul Renard").exists()


def test_a_second_request_from_one_address_is_answered_as_a_first_and_kept_once(
    client, asked, club, mailoutbox, django_capture_on_commit_callbacks
):
    other = {**ASK, "email": "lea@example.org", "name": "Léa Dubois"}
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(reverse("join-request", args=[club.slug]), ASK, follow=True)
        first = client.post(reverse("join-request", args=[club.slug]), other, follow=True)

    # A stranger cannot tell from the answer that an address has a request waiting.
    assert again.redirect_chain == first.redirect_chain
    assert "attend déjà" not in text(again)
    assert "Votre demande est envoyée" in text(again)
    assert JoinRequest.objects.filter(email=ASK["email"]).count() == 1
    # The club's admins were told of Paul's request once, then of Léa's.
    assert len(mailoutbox) == 2


def test_an_unlisted_club_takes_no_request(client, club):
    Club.objects.filter(pk=club.pk).update(listed=False)

    assert client.get(reverse("join-request", args=[club.slug])).status_code == 404
    assert client.post(reverse("join-request", args=[club.slug]), ASK).status_code == 404


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"email": "pas-une-adresse"}, "adresse e-mail valide"),
        ({"name": ""}, "Ce champ est obligatoire"),
        ({"name": "Paul\u200bRenard"}, "caractère invisible"),
        ({"message": "x" * 1001}, "au plus 1000 caractères"),
    ],
)
def test_bad_fields_are_refused(client, club, fields, words):
    response = client.post(reverse("join-request", args=[club.slug]), {**ASK, **fields})

    assert words in text(response)
    assert not JoinRequest.objects.exists()


def test_the_throttle_stops_a_sixth_request_from_one_address(client, club):
    for n in range(5):
        client.post(reverse("join-request", args=[club.slug]), {**ASK, "email": f"p{n}@ex.org"})

    response = client.post(reverse("join-request", args=[club.slug]), ASK)

    assert "Trop de demandes envoyées" in text(response)
    assert JoinRequest.objects.count() == 5


def test_a_crowd_of_addresses_cannot_flood_the_admins_mailboxes(
    client, club, club_admin, mailoutbox, django_capture_on_commit_callbacks
):
    """Each of 12 requests comes from an address of its own: the admins get the day's first 10
    e-mails; the others wait on the club's page of requests all the same."""
    for n in range(12):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                reverse("join-request", args=[club.slug]),
                {**ASK, "email": f"p{n}@example.org"},
                REMOTE_ADDR=f"203.0.113.{n + 1}",
            )

    assert JoinRequest.objects.count() == 12
    assert len(mailoutbox) == 10
    client.force_login(club_admin)
    page = client.get(reverse("join-requests", args=[club.slug]))
    assert len(page.context["requests"]) == 12


def test_a_robot_filling_the_hidden_field_leaves_nothing(client, club, mailoutbox):
    client.post(reverse("join-request", args=[club.slug]), {**ASK, "website": "spam"})

    assert not JoinRequest.objects.exists() and mailoutbox == []


def test_accepting_a_name_the_club_has_is_refused_with_what_to_do(client, asked, club, club_admin):
    PlayerFactory(club=club, first_name="Paul", last_name="Renard", display_name="Paul Renard")
    client.force_login(club_admin)

    response = client.post(
        reverse("join-request-decide", args=[club.slug, asked.pk, "accepter"]), follow=True
    )

    assert "déjà un joueur nommé Paul Renard" in text(response)
    assert JoinRequest.objects.get().status == JoinRequest.Status.PENDING


def test_an_address_with_an_account_is_invited_in_the_same_words_and_linked_when_he_accepts(
    client, asked, club, club_admin, mailoutbox
):
    account = UserFactory(username="paul", email="paul@example.org")
    client.force_login(club_admin)

    response = client.post(
        reverse("join-request-decide", args=[club.slug, asked.pk, "accepter"]), follow=True
    )

    # The admin reads what any accepted request gets: nothing of the address's account.
    assert "Paul Renard est membre du club ; son invitation est partie à paul@example.org." in (
        text(response)
    )
    assert "a déjà un compte" not in text(response)
    paul = Player.objects.get(display_name="Paul Renard")
    invitation = Invitation.objects.get(player=paul)
    assert mailoutbox[-1].to == ["paul@example.org"]
    # Paul signs in with his account and accepts: his account gets the club's player.
    path = re.search(r"https?://testserver(/compte/invitation/[^/\s]+/)", mailoutbox[-1].body)[1]
    paul_client = Client()
    paul_client.force_login(account)
    assert paul_client.post(path).url == reverse("profile")
    paul.refresh_from_db()
    invitation.refresh_from_db()
    assert paul.user == account and invitation.accepted_at is not None
    assert Membership.objects.current().filter(club=club, player=paul).exists()
    assert paul_client.get(reverse("my-results")).context["player"] == paul
