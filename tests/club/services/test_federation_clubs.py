"""No club joins a federation unasked: the federation invites, one of the club's admins accepts
or refuses on the club's management page (told by e-mail), and until then the club is no
member — the federation sees nothing of it but its public pages."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from club import tasks
from club.models import FederationAdmin, FederationInvitation, FederationSeason, Membership
from club.services import (
    federation_club_invite,
    federation_invitation_answer,
    federation_invitation_withdraw,
    federation_open,
    federation_season_create,
)
from games import services as games_services
from games.services import poule_create, presence_set
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring.models import FederationRanking
from scoring.services import deal_record, tournament_close, tournament_publish
from tests.conftest import persona
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
    night_started,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def neighbour(db):
    return ClubFactory(name="Cercle voisin", slug="voisin")


@pytest.fixture
def federation(neighbour):
    """A federation of the neighbour only; the club (RCWhist) is the one it asks."""
    return federation_open("Ligue du Brabant", clubs=[neighbour])


@pytest.fixture
def fed_admin(federation, neighbour):
    user = persona(neighbour, "ligue", Membership.Role.MEMBER)
    FederationAdmin.objects.create(federation=federation, player=user.player)
    return user


@pytest.fixture
def invitation(federation, club, fed_admin):
    return federation_club_invite(federation, club, by=fed_admin)


def answer_url(invitation, answer, club=None):
    slug = (club or invitation.club).slug
    return reverse("club-federation-answer", args=[slug, invitation.pk, answer])


def manage(federation):
    return reverse("federation-admin", args=[federation.slug])


def test_an_invited_club_is_no_member_until_its_admin_answers(
    client, federation, fed_admin, club, club_admin
):
    client.force_login(fed_admin)

    response = client.post(
        reverse("federation-club-invite", args=[federation.slug]), {"club": club.pk}, follow=True
    )

    assert "quand un de ses administrateurs aura accepté" in response.content.decode()
    invitation = federation.invitations.get()
    assert (invitation.club, invitation.status, invitation.invited_by) == (
        club,
        "pending",
        fed_admin,
    )
    assert not federation.clubs.filter(pk=club.pk).exists()
    assert "en attente de sa réponse" in client.get(manage(federation)).content.decode()
    public = client.get(reverse("federation", args=[federation.slug])).content.decode()
    assert club.name not in public
    client.force_login(club_admin)
    page = client.get(reverse("club-admin", args=[club.slug])).content.decode()
    assert "Rejoindre Ligue du Brabant" in page
    assert answer_url(invitation, "refuser") in page


def test_the_invitation_is_emailed_to_the_clubs_admins_with_the_link_to_answer(
    federation, fed_admin, club, club_admin, member, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invitation = federation_club_invite(federation, club, by=fed_admin)

    assert [message.to for message in mailoutbox] == [[club_admin.email]]
    message = mailoutbox[0]
    assert "Ligue du Brabant invite RCWhist La Chevalerie" in message.subject
    assert settings.SITE_URL + reverse("club-admin", args=[club.slug]) in message.body
    assert not PendingWork.objects.filter(task=TaskName.FEDERATION_INVITATION_EMAIL).exists()

    # A task delivered twice sends nothing twice.
    assert tasks.federation_invitation_email(invitation.pk) == 0
    assert len(mailoutbox) == 1


def test_an_invitation_withdrawn_before_its_email_goes_sends_none(
    federation, fed_admin, club, club_admin, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        invitation = federation_club_invite(federation, club, by=fed_admin)
    federation_invitation_withdraw(invitation, by=fed_admin)

    for callback in callbacks:
        callback()

    assert mailoutbox == []


def test_an_email_that_could_not_go_stays_pending_in_the_outbox(
    federation, fed_admin, club, club_admin, mailoutbox, monkeypatch
):
    invitation = federation_club_invite(federation, club, by=fed_admin)

    def down(self, messages):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", down)
    with pytest.raises(ConnectionRefusedError):
        tasks.federation_invitation_email(invitation.pk)
    assert PendingWork.objects.filter(task=TaskName.FEDERATION_INVITATION_EMAIL, key=invitation.pk)

    monkeypatch.undo()
    assert tasks.federation_invitation_email(invitation.pk) == 1
    assert [message.to for message in mailoutbox] == [[club_admin.email]]
    assert not PendingWork.objects.filter(task=TaskName.FEDERATION_INVITATION_EMAIL).exists()


def test_a_club_without_an_admin_address_is_told_at_its_contact_address(
    federation, fed_admin, mailoutbox
):
    club = ClubFactory(name="Whist Wavre", contact_email="secretariat@wavre.example")

    invitation = federation_club_invite(federation, club, by=fed_admin)
    tasks.federation_invitation_email(invitation.pk)

    assert [message.to for message in mailoutbox] == [["secretariat@wavre.example"]]


def test_a_pending_invitation_is_not_sent_twice(client, federation, fed_admin, club, invitation):
    client.force_login(fed_admin)

    response = client.post(
        reverse("federation-club-invite", args=[federation.slug]), {"club": club.pk}, follow=True
    )

    assert "a déjà une invitation de Ligue du Brabant en attente" in response.content.decode()
    assert federation.invitations.count() == 1
    with pytest.raises(ValidationError, match="en attente"):
        federation_club_invite(federation, club, by=fed_admin)
    # The database keeps it so against two requests at once.
    with pytest.raises(IntegrityError), transaction.atomic():
        FederationInvitation.objects.create(federation=federation, club=club)


def test_a_member_club_is_not_invited(federation, fed_admin, neighbour):
    with pytest.raises(ValidationError, match="fait déjà partie"):
        federation_club_invite(federation, neighbour, by=fed_admin)

    assert not federation.invitations.exists()


def test_the_clubs_admin_accepts_and_the_club_joins(
    client, federation, club, club_admin, invitation
):
    before = federation.pages_changed
    client.force_login(club_admin)

    response = client.post(answer_url(invitation, "accepter"), follow=True)

    assert "RCWhist La Chevalerie fait partie de Ligue du Brabant" in response.content.decode()
    invitation.refresh_from_db()
    assert (invitation.status, invitation.answered_by) == ("accepted", club_admin)
    assert invitation.answered_at is not None
    assert federation.clubs.filter(pk=club.pk).exists()
    federation.refresh_from_db()
    assert federation.pages_changed > before
    page = client.get(reverse("club-admin", args=[club.slug])).content.decode()
    assert "Rejoindre" not in page
    assert "Le club fait partie de" in page


def test_the_clubs_admin_refuses_and_the_federation_page_says_so(
    client, federation, fed_admin, club, club_admin, invitation
):
    client.force_login(club_admin)

    client.post(answer_url(invitation, "refuser"))

    invitation.refresh_from_db()
    assert (invitation.status, invitation.answered_by) == ("refused", club_admin)
    assert not federation.clubs.filter(pk=club.pk).exists()
    client.force_login(fed_admin)
    page = client.get(manage(federation)).content.decode()
    assert "a refusé l'invitation le" in page
    # It may be asked again later: a new question, not the old one reopened.
    assert f'<option value="{club.pk}">' in page


def test_a_withdrawn_invitation_says_so_and_can_no_longer_be_accepted(
    client, federation, fed_admin, club, club_admin, invitation
):
    client.force_login(fed_admin)
    client.post(reverse("federation-invitation-withdraw", args=[federation.slug, invitation.pk]))
    assert "invitation retirée le" in client.get(manage(federation)).content.decode()

    client.force_login(club_admin)
    response = client.post(answer_url(invitation, "accepter"), follow=True)

    assert "La fédération a retiré cette invitation." in response.content.decode()
    invitation.refresh_from_db()
    assert (invitation.status, invitation.answered_by) == ("withdrawn", fed_admin)
    assert not federation.clubs.filter(pk=club.pk).exists()


@pytest.mark.parametrize(
    ("who", "status"),
    [("fed_admin", 404), ("other_club_admin", 404), ("member", 403), ("anonymous", 302)],
)
@pytest.mark.parametrize("answer", ["accepter", "refuser"])
def test_only_the_invited_clubs_admins_may_answer(
    client, request, federation, club, invitation, who, status, answer
):
    if who == "other_club_admin":
        user = persona(ClubFactory(name="Whist Liège"), "liege", Membership.Role.ADMIN)
    elif who != "anonymous":
        user = request.getfixturevalue(who)
    if who != "anonymous":
        client.force_login(user)

    assert client.post(answer_url(invitation, answer)).status_code == status

    invitation.refresh_from_db()
    assert invitation.status == "pending"
    assert not federation.clubs.filter(pk=club.pk).exists()


def test_another_clubs_admin_cannot_answer_through_his_own_clubs_address(
    client, federation, club, invitation
):
    other = ClubFactory(name="Whist Liège")
    client.force_login(persona(other, "liege", Membership.Role.ADMIN))

    response = client.post(answer_url(invitation, "accepter", club=other))

    assert response.status_code == 404
    invitation.refresh_from_db()
    assert invitation.status == "pending"


def test_the_site_operator_may_answer_for_a_club(client, superuser, federation, club, invitation):
    client.force_login(superuser)

    client.post(answer_url(invitation, "accepter"))

    invitation.refresh_from_db()
    assert (invitation.status, invitation.answered_by) == ("accepted", superuser)
    assert federation.clubs.filter(pk=club.pk).exists()


def test_an_answer_the_site_does_not_know_is_not_found(client, club_admin, invitation):
    client.force_login(club_admin)

    assert client.post(answer_url(invitation, "peut-etre")).status_code == 404


def test_an_answered_invitation_is_not_answered_again(federation, club, club_admin, invitation):
    federation_invitation_answer(invitation, accept=False, by=club_admin)

    with pytest.raises(ValidationError, match="déjà été refusée"):
        federation_invitation_answer(invitation, accept=True, by=club_admin)
    assert not federation.clubs.filter(pk=club.pk).exists()


def test_federation_open_asks_the_clubs_in_its_admins_name(club, neighbour, club_admin):
    """Only the clubs the operator names as agreed join at once; the others are asked."""
    federation = federation_open("Ligue", clubs=[neighbour], invite=[club], admin=club_admin.player)

    assert list(federation.clubs.all()) == [neighbour]
    invitation = federation.invitations.get()
    assert (invitation.club, invitation.invited_by) == (club, club_admin)


# Until it accepts, the club is nowhere in the federation


def test_an_invited_clubs_members_are_not_on_an_interclub_nights_presence_list(
    client, federation, fed_admin, neighbour, club, club_admin, member, invitation, point_table
):
    fed_season = federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    night = games_services.tournament_create(
        club=neighbour,
        season=SeasonFactory(club=neighbour, year=2024),
        date=datetime.date(2024, 3, 7),
        game="belgian_whist",
        point_table=point_table,
        federation_season=fed_season,
    )
    scorer = persona(neighbour, "marqueur-voisin", Membership.Role.SCORER)
    client.force_login(scorer)
    search = reverse("games:presence-search", args=[neighbour.slug, night.pk])
    search += f"?q={member.player.display_name}"

    box = f'value="{member.player.pk}"'
    assert box not in client.get(search).content.decode()

    federation_invitation_answer(invitation, accept=True, by=club_admin)
    assert box in client.get(search).content.decode()


def test_an_invited_club_is_not_offered_the_federations_interclub_nights(
    client, federation, club, club_admin, invitation
):
    today = datetime.date.today()
    federation_season_create(
        federation, "En cours", today - datetime.timedelta(days=30), today + datetime.timedelta(1)
    )
    client.force_login(club_admin)
    form = reverse("games:tournament-create", args=[club.slug])

    assert "Soirée inter-clubs de Ligue du Brabant" not in client.get(form).content.decode()

    federation_invitation_answer(invitation, accept=True, by=club_admin)
    assert "Soirée inter-clubs de Ligue du Brabant" in client.get(form).content.decode()


# The administrators' search: its clubs' members, by the name they show the public


@pytest.fixture
def helene(club):
    """A member of the club with a login, who chose to show her initials."""
    return PlayerFactory(
        first_name="Hélène",
        last_name="Vandenberghe",
        display_name="Hélène Vandenberghe",
        public_name="initials",
        user=UserFactory(username="helene"),
        club=club,
    )


def search(client, federation, typed):
    """The search's answer: the list of candidates (the page echoes what was typed)."""
    page = client.get(manage(federation), {"q": typed}).content.decode()
    return page.split('<ul class="admin-candidates">')[1].split("</ul>")[0]


def zenobe(name, club, **membership):
    """A player with a login, member of ``club``."""
    return PlayerFactory(
        display_name=f"Zénobe {name}", user=UserFactory(username=name), club=club, **membership
    )


def test_the_search_finds_only_members_of_its_member_clubs(
    client, federation, fed_admin, neighbour, club, invitation
):
    zenobe("Membre", neighbour)
    zenobe("Invite", club)  # his club has not accepted yet
    zenobe("Ailleurs", ClubFactory(name="Whist Liège"))
    zenobe("Ancien", neighbour, club__end=datetime.date(2024, 6, 30), club__status="former")
    zenobe("Visiteur", neighbour, club__status=Membership.Status.GUEST)
    client.force_login(fed_admin)

    page = search(client, federation, "Zénobe")

    assert "Zénobe Membre" in page
    for not_found in ("Invite", "Ailleurs", "Ancien", "Visiteur"):
        assert f"Zénobe {not_found}" not in page


def test_a_member_who_chose_initials_is_shown_and_found_by_them_only(
    client, federation, fed_admin, club, club_admin, invitation, helene
):
    federation_invitation_answer(invitation, accept=True, by=club_admin)
    client.force_login(fed_admin)

    for hidden in ("Hélène", "vandenberghe", "Hélène Vandenberghe"):
        found = search(client, federation, hidden)
        assert "Aucun membre de ses clubs avec un compte ne porte ce nom." in found
        assert f'name="player" value="{helene.pk}"' not in found

    page = search(client, federation, "h.v.")
    assert "Nommer H.V. administrateur" in page
    assert f'name="player" value="{helene.pk}"' in page
    assert "Vandenberghe" not in page


# A club joining or leaving a federation whose season counts every night of its clubs moves
# that season's ranking: it joins once its admin accepts the federation's invitation, not when
# the invitation is sent.


SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}


def test_a_club_joining_and_leaving_moves_a_season_counting_every_night(
    client, club, point_table, django_capture_on_commit_callbacks
):
    newcomer = ClubFactory(name="Nouveau cercle", slug="nouveau")
    newcomer_season = SeasonFactory(club=newcomer, year=2024)
    federation = federation_open("Ligue du Brabant", clubs=[club])
    user = persona(club, "ligue", Membership.Role.MEMBER)
    FederationAdmin.objects.create(federation=federation, player=user.player)
    fed_season = federation_season_create(
        federation,
        "2024",
        datetime.date(2024, 1, 1),
        datetime.date(2024, 12, 31),
        counts=FederationSeason.Counts.ALL,
    )
    players = PlayerFactory.create_batch(4, club=newcomer)
    night = TournamentFactory(
        club=newcomer,
        season=newcomer_season,
        point_table=point_table,
        date=datetime.date(2024, 3, 7),
    )
    presence_set(night, players)
    night_started(night)
    deal_record(poule_create(night, round=1, table=1, players=players), SOLO_1_MADE)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(night, unfinished_ok=True)
        tournament_publish(night)
    newcomer_admin = persona(newcomer, "president-nouveau", Membership.Role.ADMIN)
    client.force_login(user)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("federation-club-invite", args=[federation.slug]), {"club": newcomer.pk}
        )
    assert not FederationRanking.objects.filter(season=fed_season, tournaments=1).exists()

    client.force_login(newcomer_admin)
    invitation = federation.invitations.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("club-federation-answer", args=[newcomer.slug, invitation.pk, "accepter"])
        )
    assert FederationRanking.objects.get(season=fed_season).tournaments == 1

    client.force_login(user)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("federation-club-remove", args=[federation.slug, newcomer.pk]))
    assert FederationRanking.objects.get(season=fed_season).tournaments == 0
