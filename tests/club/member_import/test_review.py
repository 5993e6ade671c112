"""What the members import's review says of an address tells the club's admin nothing of
other people: an address reads the same with or without an account on the site, and an
address another club's member has is kept back from the new player until he accepts."""

from __future__ import annotations

import datetime

import pytest

from club.invitations import invitation_accept, invitation_for_token
from club.member_import.invitations import member_invitations_send
from club.member_import.lines import member_lines_read
from club.member_import.review import NEW, entries_of, members_review
from club.member_import.store import members_import
from club.models import Invitation, Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

COLUMNS = {"name": 0, "first_name": None, "last_name": None, "email": 1, "phone": None}
PASSWORD = "trefle-carreau-pique-coeur"


def read(*rows: list[str]):
    return member_lines_read([["Nom", "E-mail"], *rows], COLUMNS, header=True)


def test_an_address_reads_the_same_with_or_without_an_account(club):
    UserFactory(username="bruno@example.org", email="bruno@example.org")
    bruno, zoe = members_review(
        club, read(["Bruno Lemaire", "bruno@example.org"], ["Zoé Lefèvre", "zoe@example.org"])
    )
    said = [(row.kind, row.invited, row.no_invitation, row.address_held) for row in (bruno, zoe)]
    assert said[0] == said[1] == (NEW, True, "", "")


def test_another_clubs_members_address_waits_until_he_accepts(club, mailoutbox, monkeypatch):
    PlayerFactory(display_name="Anne Dupont", email="anne@example.org", club=ClubFactory())
    (row,) = members_review(club, read(["Anne Dupont", "Anne@example.org"]))
    assert row.kind == NEW and row.invited
    assert "quand la personne acceptera" in row.address_held

    members_import(club, entries_of([row]), by=None, start=datetime.date.today())
    anne = Player.objects.get(memberships__club=club)
    # The club's members file holds her name alone…
    assert anne.email == ""
    # The invitation's link, as the e-mail would carry it.
    monkeypatch.setattr("club.invitations.secrets.token_urlsafe", lambda _n: "lien-d-anne")
    assert member_invitations_send(club.member_imports.get().pk) == 1
    anne.refresh_from_db()
    assert anne.email == ""
    assert Invitation.objects.get(player=anne).email == "anne@example.org"

    # … until she accepts the invitation from her mailbox.
    invitation_accept(invitation_for_token("lien-d-anne"), PASSWORD)
    anne.refresh_from_db()
    assert anne.email == "anne@example.org"
