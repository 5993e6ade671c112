"""The site operator opens a federation from the command line, or in Django's admin: the
command invites its clubs unless he says they agreed (``--join``); in Django's admin a club he
ticks joins at once (the operator's road)."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from club.models import Federation
from club.services import federation_open
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def federation_create(name, clubs, admin, *options):
    """``manage.py federation_create`` as the operator types it; returns what it printed."""
    out = io.StringIO()
    slugs = [arg for club in clubs for arg in ("--club", club.slug)]
    call_command("federation_create", name, *slugs, "--admin", admin, *options, stdout=out)
    return out.getvalue()


def test_the_operator_opens_a_federation_inviting_its_clubs_run_by_a_member(club, club_admin):
    """Each club is asked in its first administrator's name; none is a member before its own
    admin accepts."""
    neighbour = ClubFactory(name="Whist Club de Wavre")

    printed = federation_create("Ligue  belge de whist", [club, neighbour], club_admin.username)

    federation = Federation.objects.get()
    assert federation.name == "Ligue belge de whist"
    assert not federation.clubs.exists()
    invitations = federation.invitations.all()
    assert {(i.club, i.status, i.invited_by) for i in invitations} == {
        (club, "pending", club_admin),
        (neighbour, "pending", club_admin),
    }
    assert [a.player for a in federation.admins.all()] == [club_admin.player]
    assert f"/federations/{federation.slug}/" in printed
    assert "invited" in printed


def test_the_operator_makes_clubs_join_at_once_when_they_gave_him_their_word(club, club_admin):
    neighbour = ClubFactory(name="Whist Club de Wavre")

    federation_create("Ligue", [club, neighbour], club_admin.username, "--join")

    federation = Federation.objects.get()
    assert set(federation.clubs.all()) == {club, neighbour}
    assert not federation.invitations.exists()


@pytest.mark.parametrize(
    ("club_slug", "admin", "refusal"),
    [("nulle-part", "gerant", "No club with the slug nulle-part"), (None, "x", "No member")],
)
def test_an_unknown_club_or_login_is_refused_and_nothing_is_made(
    club, club_admin, club_slug, admin, refusal
):
    with pytest.raises(CommandError, match=refusal):
        call_command(
            "federation_create",
            "Ligue",
            "--club",
            club_slug or club.slug,
            "--admin",
            admin if admin != "gerant" else club_admin.username,
        )

    assert not Federation.objects.exists()


def test_a_club_added_in_django_admin_shows_at_once_on_the_federation_page(client, superuser, club):
    client.force_login(superuser)
    client.post(
        reverse("admin:club_federation_add"),
        {
            "name": "Ligue",
            "slug": "ligue",
            "clubs": [],
            "admins-TOTAL_FORMS": 0,
            "admins-INITIAL_FORMS": 0,
            "seasons-TOTAL_FORMS": 0,
            "seasons-INITIAL_FORMS": 0,
        },
    )
    federation = Federation.objects.get()
    assert club.name not in client.get(f"/federations/{federation.slug}/").content.decode()

    client.post(
        reverse("admin:club_federation_change", args=[federation.pk]),
        {
            "name": "Ligue",
            "slug": "ligue",
            "clubs": [club.pk],
            "admins-TOTAL_FORMS": 0,
            "admins-INITIAL_FORMS": 0,
            "seasons-TOTAL_FORMS": 0,
            "seasons-INITIAL_FORMS": 0,
        },
    )

    assert club.name in client.get(f"/federations/{federation.slug}/").content.decode()


def test_a_club_the_operator_ticks_in_django_admin_settles_its_pending_invitation(
    client, superuser, club
):
    federation = federation_open("Ligue", invite=[club])
    client.force_login(superuser)

    client.post(
        reverse("admin:club_federation_change", args=[federation.pk]),
        {
            "name": "Ligue",
            "slug": federation.slug,
            "clubs": [club.pk],
            "admins-TOTAL_FORMS": 0,
            "admins-INITIAL_FORMS": 0,
            "seasons-TOTAL_FORMS": 0,
            "seasons-INITIAL_FORMS": 0,
        },
    )

    invitation = federation.invitations.get()
    assert (invitation.status, invitation.answered_by) == ("accepted", superuser)
    assert federation.clubs.get() == club
