"""Wrong passwords lock an account for a while, a club admin can lift the lock, and password
reset e-mails are rationed."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.hashers import MD5PasswordHasher
from django.urls import reverse

from club.models import Membership
from infra import throttle
from infra.models import ThrottleEvent
from tests.conftest import persona
from tests.factories import PASSWORD, ClubFactory

pytestmark = pytest.mark.django_db

LOCKED = "la connexion est bloquée"
RESET_LINK = re.compile(r"https?://testserver(/compte/reset/[^\s]+/)")
NEW_PASSWORD = "trefle-pique-carreau-2024"


def log_in(client, username, password, address="192.0.2.10"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def guess(client, username, times, address="192.0.2.10"):
    for n in range(times):
        response = log_in(client, username, f"mauvais-{n}", address)
        assert response.status_code == 200


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_eleventh_attempt_after_ten_wrong_passwords_is_refused_even_when_right(client, member):
    guess(client, "membre", 10)

    response = log_in(client, "membre", PASSWORD)

    assert LOCKED in response.text
    assert not signed_in(client)


def test_nine_wrong_passwords_still_let_the_member_in(client, member):
    guess(client, "membre", 9)

    log_in(client, "membre", PASSWORD)

    assert signed_in(client)


def test_the_account_counts_however_it_is_named(client, member):
    guess(client, "membre", 5)
    guess(client, "MEMBRE", 5)

    assert LOCKED in log_in(client, "membre", PASSWORD).text


def test_a_locked_login_never_reaches_the_password_hasher(client, member, monkeypatch):
    guess(client, "membre", 10)
    checked = []
    original = MD5PasswordHasher.verify
    monkeypatch.setattr(
        MD5PasswordHasher, "verify", lambda self, *a: checked.append(1) or original(self, *a)
    )

    log_in(client, "membre", PASSWORD)

    assert checked == []


def test_the_lock_ends_after_a_quarter_of_an_hour(client, member):
    guess(client, "membre", 10)
    ThrottleEvent.objects.update(at=datetime.datetime.now(datetime.UTC) - throttle.KEEP / 96)

    log_in(client, "membre", PASSWORD)

    assert signed_in(client)


def test_an_address_guessing_many_accounts_is_locked_out(client, db):
    club = ClubFactory()
    for n in range(5):
        persona(club, f"cible{n}", Membership.Role.MEMBER)
    for n in range(5):
        guess(client, f"cible{n}", 10, address="198.51.100.7")

    assert LOCKED in log_in(client, "cible0", PASSWORD, address="198.51.100.7").text
    # Another address is not concerned by that one's guesses … but the accounts are.
    assert LOCKED in log_in(client, "cible0", PASSWORD, address="192.0.2.99").text


def test_a_club_admin_lifts_the_lock_from_the_members_page(client, club, member, club_admin):
    guess(client, "membre", 10)
    client.force_login(club_admin)
    page = client.get(reverse("members", args=[club.slug])).text
    assert "Débloquer" in page

    player = member.player
    client.post(reverse("member-unlock", args=[club.slug, player.pk]))
    client.logout()

    log_in(client, "membre", PASSWORD)
    assert signed_in(client)


@pytest.mark.parametrize("who", ["scorer", "member"])
def test_only_a_club_admin_may_lift_a_lock(client, club, member, request, who):
    guess(client, "membre", 10)
    client.force_login(request.getfixturevalue(who))

    response = client.post(reverse("member-unlock", args=[club.slug, member.player.pk]))

    assert response.status_code == 403
    # Still locked: the right password is refused.
    client.logout()
    log_in(client, "membre", PASSWORD)
    assert not signed_in(client)


def test_another_clubs_admin_cannot_lift_a_lock_of_this_club(client, club, member):
    guess(client, "membre", 10)
    other = ClubFactory(name="Whist Club Liège")
    client.force_login(persona(other, "admin-liege", Membership.Role.ADMIN))

    response = client.post(reverse("member-unlock", args=[other.slug, member.player.pk]))

    assert response.status_code == 404
    # Still locked: the right password is refused.
    client.logout()
    log_in(client, "membre", PASSWORD)
    assert not signed_in(client)


def test_a_new_password_from_the_mailbox_lifts_the_lock(client, member, mailoutbox):
    guess(client, "membre", 10)
    client.post(reverse("password_reset"), {"email": member.email})
    link = RESET_LINK.search(mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    log_in(client, "membre", NEW_PASSWORD)

    assert signed_in(client)


def test_password_reset_emails_are_rationed_per_address(client, member, mailoutbox):
    for _n in range(5):
        response = client.post(reverse("password_reset"), {"email": member.email})
        assert response["Location"] == reverse("password_reset_done")

    assert len(mailoutbox) == throttle.RESET_ACCOUNT.attempts


def test_password_reset_emails_are_rationed_per_sender(client, db, mailoutbox):
    club = ClubFactory()
    users = [persona(club, f"oubli{n}", Membership.Role.MEMBER) for n in range(12)]
    for user in users:
        client.post(reverse("password_reset"), {"email": user.email}, REMOTE_ADDR="203.0.113.5")

    assert len(mailoutbox) == throttle.RESET_ADDRESS.attempts


# --------------------------------------------------------------------------------------------
# Every way in is locked alike: the count lives in the authentication backend.


def test_the_admin_login_is_locked_after_ten_wrong_passwords_even_for_the_superuser(
    client, django_user_model
):
    django_user_model.objects.create_superuser("operateur", "op@example.org", PASSWORD)
    for n in range(10):
        client.post(
            reverse("admin:login"),
            {"username": "operateur", "password": f"mauvais-{n}"},
            REMOTE_ADDR="192.0.2.30",
        )

    response = client.post(
        reverse("admin:login"),
        {"username": "operateur", "password": PASSWORD},
        REMOTE_ADDR="192.0.2.30",
    )

    assert not signed_in(client)
    assert LOCKED in response.text
    assert client.get(reverse("admin:index")).status_code == 302  # still to the login page


def test_wrong_passwords_at_the_admin_and_the_site_count_together(client, member):
    for n in range(5):
        client.post(
            reverse("admin:login"),
            {"username": "membre", "password": f"mauvais-{n}"},
            REMOTE_ADDR="192.0.2.31",
        )
    guess(client, "membre", 5, address="192.0.2.32")

    log_in(client, "membre", PASSWORD, address="192.0.2.33")

    assert not signed_in(client)


def test_a_locked_account_is_refused_by_authenticate_itself(rf, member):
    for n in range(10):
        assert authenticate(rf.post("/"), username="membre", password=f"mauvais-{n}") is None

    assert authenticate(rf.post("/"), username="membre", password=PASSWORD) is None
    throttle.account_unlock(member.pk)
    assert authenticate(rf.post("/"), username="membre", password=PASSWORD) is not None
