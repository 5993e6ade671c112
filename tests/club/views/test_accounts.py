"""Accounts: a club admin invites a player by e-mail, the member opens his account with the
link and signs in with his address; password change and reset are Django's, in the site's
pages."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user, get_user_model
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.db.models import F
from django.test import Client
from django.urls import reverse

from club import invitations
from club.models import Invitation, Membership, Player, PlayerMerge
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW_PASSWORD = "trefle-pique-carreau-2024"
LINK = re.compile(r"https?://testserver(/compte/invitation/[^/\s]+/)")
RESET_LINK = re.compile(r"https?://testserver(/compte/reset/[^\s]+/)")
# The members page: session, user, club, the admin's role, memberships with players and
# accounts, their pending invitations.
MEMBERS_PAGE_QUERIES = 8
DUTCH_MONTHS = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus"]
DUTCH_MONTHS += ["september", "oktober", "november", "december"]


@pytest.fixture
def anne(club):
    return PlayerFactory(
        first_name="Anne", last_name="Dupont", display_name="Anne Dupont", club=club
    )


@pytest.fixture
def admin_client(client, club_admin):
    client.force_login(club_admin)
    return client


def members_url(club):
    return reverse("members", args=[club.slug])


def invite_url(club, player):
    return reverse("invite", args=[club.slug, player.pk])


def link_path(message) -> str:
    return LINK.search(message.body).group(1)


def send(club, player, email="anne@example.org", by=None):
    """An invitation sent by the service, as the members page does; returns the link's path."""
    token = {}

    def link_for(value):
        token["value"] = value
        return f"http://testserver{reverse('invitation-accept', args=[value])}"

    invitations.invitation_send(club, player, email, by=by, link_for=link_for)
    return reverse("invitation-accept", args=[token["value"]])


def choose_password(client, path, password=NEW_PASSWORD):
    return client.post(path, {"new_password1": password, "new_password2": password})


# The whole flow


def test_an_invited_player_chooses_a_password_claims_his_player_and_signs_in_with_his_address(
    admin_client, club, anne, mailoutbox
):
    invited = admin_client.post(invite_url(club, anne), {"email": "Anne.Dupont@Example.org"})

    assert invited.status_code == 302
    assert invited["Location"] == members_url(club)
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["anne.dupont@example.org"]
    path = link_path(mailoutbox[0])

    admin_client.logout()
    page = admin_client.get(path)
    assert page.status_code == 200
    assert "Anne Dupont" in page.text
    assert club.name in page.text

    opened = choose_password(admin_client, path)

    assert opened.status_code == 302
    assert opened["Location"] == reverse("profile")
    anne.refresh_from_db()
    assert anne.user is not None
    assert anne.user.username == "anne.dupont@example.org"
    assert anne.user.email == "anne.dupont@example.org"
    assert (anne.user.first_name, anne.user.last_name) == ("Anne", "Dupont")
    assert anne.email == "anne.dupont@example.org"
    assert get_user(admin_client) == anne.user

    admin_client.logout()
    signed_in = admin_client.post(
        reverse("login"), {"username": "anne.dupont@example.org", "password": NEW_PASSWORD}
    )
    assert signed_in.status_code == 302
    assert get_user(admin_client) == anne.user


def test_the_welcome_message_greets_the_new_member(client, club, anne):
    path = send(club, anne)

    response = client.post(
        path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=False
    )
    messages = [str(m) for m in get_messages(response.wsgi_request)]

    assert messages == ["Bienvenue, Anne Dupont : votre compte est ouvert."]


def test_the_invitation_email_names_the_club_and_how_long_the_link_works(club, anne, mailoutbox):
    send(club, anne)

    message = mailoutbox[0]
    assert club.name in message.subject
    assert "Bonjour Anne Dupont" in message.body
    assert f"Le club {club.name} vous invite" in message.body
    assert f"pendant {invitations.INVITATION_DAYS} jours" in message.body
    assert LINK.search(message.body)


def test_the_invitation_email_is_written_in_the_players_language(club, mailoutbox):
    dutch = PlayerFactory(display_name="Jan Peeters", language="nl", club=club)

    send(club, dutch, "jan@example.org")

    assert any(month in mailoutbox[0].body for month in DUTCH_MONTHS)


def test_the_links_token_is_not_stored(club, anne):
    path = send(club, anne)
    token = path.rstrip("/").rsplit("/", 1)[1]

    invitation = Invitation.objects.get()
    assert token not in invitation.token_hash
    assert not Invitation.objects.filter(token_hash=token).exists()


def test_an_invited_player_without_an_address_keeps_the_invited_one(club, anne):
    send(club, anne, "anne@example.org")

    anne.refresh_from_db()
    assert anne.email == "anne@example.org"


def test_an_invitation_to_another_address_does_not_change_the_players_address(club):
    player = PlayerFactory(email="club@example.org", club=club)

    send(club, player, "perso@example.org")

    player.refresh_from_db()
    assert player.email == "club@example.org"


# Links that no longer work


def test_an_invitation_link_works_only_once(client, club, anne):
    path = send(club, anne)
    choose_password(client, path)
    client.logout()

    again = choose_password(client, path, "un-autre-mot-de-passe-42")

    assert again.status_code == 404
    assert "n'est pas ou plus valable" in again.text
    assert User.objects.filter(username="anne@example.org").count() == 1
    assert client.login(username="anne@example.org", password=NEW_PASSWORD)


def test_the_service_refuses_an_invitation_already_accepted(club, anne):
    send(club, anne)
    invitation = Invitation.objects.get()
    invitations.invitation_accept(invitation, NEW_PASSWORD)

    with pytest.raises(ValidationError, match="déjà servi"):
        invitations.invitation_accept(invitation, "un-autre-mot-de-passe-42")

    assert User.objects.filter(email="anne@example.org").count() == 1


def test_an_expired_invitation_link_is_refused_and_creates_nothing(client, club, anne):
    path = send(club, anne)
    Invitation.objects.update(
        created=F("created") - datetime.timedelta(days=invitations.INVITATION_DAYS + 1)
    )

    shown = client.get(path)
    posted = choose_password(client, path)

    assert shown.status_code == 404
    assert "Demandez au club de vous envoyer une nouvelle invitation" in shown.text
    assert posted.status_code == 404
    assert not User.objects.filter(email="anne@example.org").exists()
    anne.refresh_from_db()
    assert anne.user is None


def test_an_invitation_link_still_works_the_day_before_it_expires(client, club, anne):
    path = send(club, anne)
    Invitation.objects.update(
        created=F("created") - datetime.timedelta(days=invitations.INVITATION_DAYS - 1)
    )

    assert choose_password(client, path).status_code == 302


def test_a_new_invitation_replaces_the_previous_link(client, club, anne):
    old = send(club, anne, "anne@example.org")
    new = send(club, anne, "anne.dupont@example.org")

    assert client.get(old).status_code == 404
    assert choose_password(client, new).status_code == 302
    anne.refresh_from_db()
    assert anne.user.email == "anne.dupont@example.org"
    assert Invitation.objects.count() == 1


def test_an_unknown_link_is_refused(client, db):
    response = client.get(reverse("invitation-accept", args=["pas-un-vrai-jeton"]))

    assert response.status_code == 404
    assert "Ce lien d'invitation n'est pas ou plus valable" in response.text


# Invitations that are refused


def test_a_player_who_has_an_account_cannot_be_invited(admin_client, club, member, mailoutbox):
    player = member.player

    response = admin_client.post(invite_url(club, player), {"email": "nouvelle@example.org"})

    assert response.status_code == 302
    assert mailoutbox == []
    assert not Invitation.objects.exists()
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert messages == [f"{player} a déjà un compte."]


def test_an_address_that_has_an_account_is_invited_in_the_same_words_as_any_address(
    admin_client, club, anne, mailoutbox
):
    UserFactory(username="anne@example.org", email="anne@example.org")

    response = admin_client.post(invite_url(club, anne), {"email": "Anne@example.org"})

    # The admin learns nothing of the address: the words a new address gets.
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert messages == ["Invitation envoyée à Anne Dupont (anne@example.org)."]
    (sent,) = mailoutbox
    assert sent.to == ["anne@example.org"]
    # Its owner alone is told to sign in rather than choose a password.
    assert "connectez-vous avec ce compte pour accepter l'invitation" in sent.body
    assert "Pour choisir votre mot de passe" not in sent.body


def test_an_address_taken_by_another_account_after_the_invitation_asks_to_sign_in(
    client, club, anne
):
    path = send(club, anne, "anne@example.org")
    UserFactory(username="anne-ailleurs", email="Anne@example.org")

    response = choose_password(client, path)

    assert response.status_code == 200
    assert "a déjà un compte sur ce site : connectez-vous avec ce compte" in response.text
    assert "new_password1" not in response.text
    anne.refresh_from_db()
    assert anne.user is None
    assert not User.objects.filter(username="anne@example.org").exists()


def test_a_malformed_address_is_refused(admin_client, club, anne, mailoutbox):
    response = admin_client.post(invite_url(club, anne), {"email": "anne@"}, follow=True)

    assert "Saisissez une adresse e-mail valide." in response.text
    assert mailoutbox == []
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("address", ["pas-une-adresse", "a" * 140 + "@example.org"])
def test_the_service_itself_refuses_an_address_that_cannot_be_a_login(
    club, anne, address, mailoutbox
):
    with pytest.raises(ValidationError):
        send(club, anne, address)

    assert mailoutbox == []
    assert not Invitation.objects.exists()


def test_a_former_member_cannot_be_invited(club, mailoutbox):
    player = PlayerFactory(club=club, club__end=datetime.date(2024, 6, 30))

    with pytest.raises(ValidationError, match="n'est pas membre du club"):
        send(club, player)

    assert mailoutbox == []


def test_nothing_is_left_behind_when_the_email_cannot_be_sent(club, anne, monkeypatch):
    def broken_mail_server(*args, **kwargs):
        raise ConnectionRefusedError("no SMTP server")

    monkeypatch.setattr(invitations, "send_mail", broken_mail_server)

    with pytest.raises(ConnectionRefusedError):
        send(club, anne)

    assert not Invitation.objects.exists()
    anne.refresh_from_db()
    assert anne.email == ""


def test_a_too_easy_password_is_refused_and_the_link_keeps_working(client, club, anne):
    path = send(club, anne)

    refused = choose_password(client, path, "12345678")
    mismatch = client.post(path, {"new_password1": NEW_PASSWORD, "new_password2": "autre"})

    assert refused.status_code == 200
    assert mismatch.status_code == 200
    assert not User.objects.filter(email="anne@example.org").exists()
    assert choose_password(client, path).status_code == 302


def test_a_signed_in_visitor_is_asked_to_sign_out_before_using_a_link(client, club, anne, member):
    path = send(club, anne)
    client.force_login(member)

    shown = client.get(path)
    posted = choose_password(client, path)

    assert shown.status_code == 200
    assert "déconnectez-vous d'abord" in shown.text
    assert posted.status_code == 403
    assert get_user(client) == member
    anne.refresh_from_db()
    assert anne.user is None


# Who may see the members page and invite


@pytest.mark.parametrize("persona", ["scorer", "member", "outsider"])
def test_only_club_admins_see_the_members_page_and_invite(
    client, request, club, anne, persona, mailoutbox
):
    client.force_login(request.getfixturevalue(persona))

    page = client.get(members_url(club))
    invited = client.post(invite_url(club, anne), {"email": "anne@example.org"})

    # The club's members are told they may not; anybody else learns nothing of the page.
    refused = 404 if persona == "outsider" else 403
    assert page.status_code == refused
    assert invited.status_code == refused
    assert mailoutbox == []
    assert not Invitation.objects.exists()
    anne.refresh_from_db()
    assert anne.email == ""


def test_an_anonymous_visitor_is_sent_to_the_login_page(client, club, anne, mailoutbox):
    page = client.get(members_url(club))
    invited = client.post(invite_url(club, anne), {"email": "anne@example.org"})

    assert page.status_code == 302
    assert page["Location"].startswith(reverse("login"))
    assert invited.status_code == 302
    assert invited["Location"].startswith(reverse("login"))
    assert mailoutbox == []
    assert not Invitation.objects.exists()


def test_an_admin_of_another_club_cannot_invite_this_clubs_player(client, club, anne, mailoutbox):
    namur = ClubFactory(name="Whist Club de Namur")
    namur_admin = UserFactory(username="president-namur")
    PlayerFactory(user=namur_admin, club=namur, club__role=Membership.Role.ADMIN)
    client.force_login(namur_admin)

    through_this_club = client.post(invite_url(club, anne), {"email": "anne@example.org"})
    through_his_club = client.post(invite_url(namur, anne), {"email": "anne@example.org"})

    assert through_this_club.status_code == 404
    assert through_his_club.status_code == 404
    assert mailoutbox == []
    assert not Invitation.objects.exists()


def test_inviting_is_a_post(admin_client, club, anne):
    assert admin_client.get(invite_url(club, anne)).status_code == 405


# The members page


def test_the_members_page_shows_where_each_account_stands(admin_client, club, anne):
    bruno = PlayerFactory(display_name="Bruno Lemaire", email="bruno@example.org", club=club)
    send(club, anne, "anne@example.org")

    response = admin_client.get(members_url(club))

    assert response.status_code == 200
    rows = {row.player.display_name: row for row in response.context["rows"]}
    assert rows["Anne Dupont"].invitation.email == "anne@example.org"
    assert rows["Bruno Lemaire"].invitation is None
    text = response.text
    assert "Compte actif" in text
    assert "Invitation envoyée le" in text
    assert "à anne@example.org" in text
    assert "Pas de compte" in text
    # Bruno's known address is ready in his form; only players without an account have one.
    assert 'value="bruno@example.org"' in text
    assert invite_url(club, bruno) in text
    assert invite_url(club, anne) in text
    admin_player = Player.objects.get(user__username="president")
    assert invite_url(club, admin_player) not in text


def test_the_members_page_says_when_an_invitation_has_expired(admin_client, club, anne):
    send(club, anne)
    Invitation.objects.update(created=F("created") - datetime.timedelta(days=30))

    response = admin_client.get(members_url(club))

    assert "le lien a expiré" in response.text
    assert "Inviter à nouveau" in response.text


def test_an_htmx_invitation_returns_only_the_players_line(admin_client, club, anne, mailoutbox):
    response = admin_client.post(
        invite_url(club, anne), {"email": "anne@example.org"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith(f'<li class="card member" id="member-{anne.pk}"')
    assert "<html" not in response.text
    assert "Invitation envoyée à Anne Dupont (anne@example.org)." in response.text
    assert len(mailoutbox) == 1


def test_an_htmx_invitation_to_an_address_with_an_account_says_what_any_invitation_says(
    admin_client, club, anne, member, mailoutbox
):
    response = admin_client.post(
        invite_url(club, anne), {"email": member.email}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert f"Invitation envoyée à Anne Dupont ({member.email})." in response.text
    assert [m.to for m in mailoutbox] == [[member.email]]


def members_page_queries(client, club, django_assert_num_queries):
    with django_assert_num_queries(MEMBERS_PAGE_QUERIES):
        response = client.get(reverse("members", args=[club.slug]))
    return response


def add_players(club, count):
    """A third with an account, a third invited, a third with nothing yet."""
    for n in range(count):
        if n % 3 == 0:
            PlayerFactory(user=UserFactory(), club=club)
        elif n % 3 == 1:
            send(club, PlayerFactory(club=club), f"joueur{n}@example.org")
        else:
            PlayerFactory(club=club)


def test_the_members_page_queries_stay_the_same_as_the_club_grows(
    admin_client, club, django_assert_num_queries
):
    add_players(club, 5)
    small = members_page_queries(admin_client, club, django_assert_num_queries)
    add_players(club, 20)
    large = members_page_queries(admin_client, club, django_assert_num_queries)

    assert len(small.context["rows"]) == 6
    assert len(large.context["rows"]) == 26


# Login, logout, password change and reset


def test_the_login_page_asks_for_an_address_and_offers_a_forgotten_password_link(client, db):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert "Adresse e-mail ou nom d'utilisateur" in response.text
    assert reverse("password_reset") in response.text
    assert "Mot de passe oublié ?" in response.text


def test_a_wrong_password_is_refused_on_the_login_page(client, member):
    response = client.post(reverse("login"), {"username": "membre", "password": "faux"})

    assert response.status_code == 200
    assert "errors" in response.text
    assert not get_user(client).is_authenticated


def test_a_member_signs_out(client, member):
    client.force_login(member)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert not get_user(client).is_authenticated


def test_a_member_changes_his_password(client, member):
    client.force_login(member)
    assert client.get(reverse("password_change")).status_code == 200

    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert client.get(reverse("password_change_done")).status_code == 200
    client.logout()
    assert not client.login(username="membre", password=PASSWORD)
    assert client.login(username="membre", password=NEW_PASSWORD)


def test_a_wrong_current_password_does_not_change_it(client, member):
    client.force_login(member)

    response = client.post(
        reverse("password_change"),
        {"old_password": "faux", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    client.logout()
    assert client.login(username="membre", password=PASSWORD)


def test_changing_a_password_needs_a_login(client, db):
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    "name", ["login", "password_reset", "password_reset_done", "password_reset_complete"]
)
def test_the_auth_pages_open_in_the_sites_layout(client, db, name):
    response = client.get(reverse(name))

    assert response.status_code == 200
    assert 'class="site-header' in response.text


def test_a_member_who_forgot_his_password_chooses_a_new_one_by_email(client, member, mailoutbox):
    asked = client.post(reverse("password_reset"), {"email": member.email})

    assert asked["Location"] == reverse("password_reset_done")
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [member.email]
    link = RESET_LINK.search(mailoutbox[0].body).group(1)

    form = client.get(link, follow=True)
    assert form.status_code == 200
    assert "Nouveau mot de passe" in form.text
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert done["Location"] == reverse("password_reset_complete")
    assert client.login(username="membre", password=NEW_PASSWORD)
    assert not client.login(username="membre", password=PASSWORD)


def test_a_used_password_reset_link_says_it_no_longer_works(client, member, mailoutbox):
    client.post(reverse("password_reset"), {"email": member.email})
    link = RESET_LINK.search(mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    again = client.get(link, follow=True)

    assert "Ce lien n'est plus valable" in again.text


def test_an_account_without_a_player_also_gets_its_reset_email(client, db, mailoutbox):
    UserFactory(username="secretaire", email="secretaire@example.org")

    client.post(reverse("password_reset"), {"email": "secretaire@example.org"})

    assert len(mailoutbox) == 1
    assert RESET_LINK.search(mailoutbox[0].body)


def test_an_unknown_address_gets_the_same_answer_and_no_email(client, db, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "personne@example.org"})

    assert response["Location"] == reverse("password_reset_done")
    assert mailoutbox == []


# The admin


def test_the_admin_lists_invitations_without_their_token(client, superuser, club, anne):
    send(club, anne)
    invitation = Invitation.objects.get()
    client.force_login(superuser)

    changelist = client.get(reverse("admin:club_invitation_changelist"))
    change = client.get(reverse("admin:club_invitation_change", args=[invitation.pk]))
    add = client.get(reverse("admin:club_invitation_add"))

    assert changelist.status_code == 200
    assert "anne@example.org" in changelist.text
    assert change.status_code == 200
    assert invitation.token_hash not in change.text
    assert add.status_code == 403


def test_a_member_logs_in_with_his_address_typed_in_capitals(client, db):
    UserFactory(username="anne.dupont@example.org", email="anne.dupont@example.org")

    response = client.post(
        reverse("login"), {"username": " Anne.Dupont@Example.org", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert get_user(client).username == "anne.dupont@example.org"


def test_two_usernames_differing_only_in_case_each_log_in_as_themselves_and_never_guess(client, db):
    UserFactory(username="Jo")
    UserFactory(username="jo")

    exact = client.post(reverse("login"), {"username": "Jo", "password": PASSWORD})
    assert exact.status_code == 302 and get_user(client).username == "Jo"
    client.logout()
    ambiguous = client.post(reverse("login"), {"username": "JO", "password": PASSWORD})

    assert ambiguous.status_code == 200
    assert not get_user(client).is_authenticated


def test_logging_in_switches_the_interface_to_the_language_of_the_members_profile(client, member):
    Player.objects.filter(user=member).update(language="nl")

    response = client.post(reverse("login"), {"username": "membre", "password": PASSWORD})

    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    assert client.get(reverse("profile")).headers["Content-Language"] == "nl"


def test_an_account_without_a_player_logs_in_in_the_language_it_had(client, superuser):
    response = client.post(reverse("login"), {"username": "root", "password": PASSWORD})

    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


# An address that has an account: its owner signs in to accept


def test_the_owner_of_an_address_with_an_account_signs_in_and_his_account_gets_the_player(
    admin_client, club, anne, mailoutbox
):
    account = UserFactory(username="anne@example.org", email="anne@example.org")
    admin_client.post(invite_url(club, anne), {"email": "anne@example.org"})
    path = link_path(mailoutbox[-1])
    anne_client = Client()

    asked = anne_client.get(path)
    assert "connectez-vous avec ce compte pour accepter" in asked.text
    assert "new_password1" not in asked.text
    assert anne_client.login(username="anne@example.org", password=PASSWORD)
    page = anne_client.get(path)
    assert "Accepter l'invitation" in page.text
    response = anne_client.post(path)

    assert response.status_code == 302 and response.url == reverse("profile")
    anne.refresh_from_db()
    assert anne.user == account
    assert Membership.objects.current().filter(club=club, player=anne).exists()
    assert anne_client.get(reverse("my-results")).context["player"] == anne
    assert anne_client.get(path).status_code == 404  # the link has served


def test_an_account_with_a_player_elsewhere_accepts_and_the_club_confirms_the_merge(
    admin_client, club, anne, outsider, mailoutbox
):
    own = outsider.player
    admin_client.post(invite_url(club, anne), {"email": outsider.email})
    path = link_path(mailoutbox[-1])
    voisin = Client()
    assert voisin.login(username=outsider.username, password=PASSWORD)

    assert "soit réunie à la vôtre" in voisin.get(path).text
    response = voisin.post(path)

    assert response.url == reverse("profile")
    merge = PlayerMerge.objects.get()
    assert (merge.kept, merge.merged, merge.club) == (own, anne, club)
    assert merge.proposed_by == outsider and merge.status == PlayerMerge.Status.PROPOSED
    # The club's admin confirms it as any merge, from the club's merges page.
    admin_client.post(reverse("club-merge-decide", args=[club.slug, merge.pk, "confirmer"]))
    merge.refresh_from_db()
    assert merge.status == PlayerMerge.Status.DONE
    assert Membership.objects.current().filter(club=club, player=own).exists()
    own.refresh_from_db()
    assert own.user == outsider
    assert voisin.get(reverse("my-results")).context["player"] == own


def test_another_account_signed_in_cannot_accept_an_invitation_to_an_address_with_an_account(
    client, club, anne, member
):
    UserFactory(username="anne@example.org", email="anne@example.org")
    path = send(club, anne, "anne@example.org")
    client.force_login(member)

    assert "Me déconnecter et continuer" in client.get(path).text
    response = client.post(path)

    assert response.status_code == 403
    anne.refresh_from_db()
    assert anne.user is None
    assert not Invitation.objects.filter(accepted_at__isnull=False).exists()
