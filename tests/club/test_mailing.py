"""Plain text stays plain: every e-mail the site sends, to a club and a player whose names hold
``<b>&"'``, reads those names as typed in its subject and its text part, and escaped in its
HTML part (a mail reader shows the HTML). A new e-mail template that no kind below sends fails
the last test: add the e-mail to ``KINDS``."""

from __future__ import annotations

import html
from collections.abc import Callable
from email.header import decode_header, make_header
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils import timezone

from club import mailing
from club.invitations import invitation_accept, invitation_send
from club.mailing.closing import club_closed_send
from club.mailing.federation import invitation_send as federation_invitation_send
from club.mailing.signup import (
    join_request_send,
    signup_decision_send,
    signup_link_send,
    signup_operators_send,
)
from club.models import (
    Club,
    ClubSignup,
    FederationInvitation,
    JoinRequest,
    Membership,
    Player,
)
from club.profile import _email_change_request
from club.services import federation_open
from club.services.closing import club_close
from clubsite.mailing import contact_send, news_email_send
from clubsite.models import ContactMessage, NewsPost
from clubsite.news import PostText, news_reader_set, news_save
from clubsite.photos import services as photo_services
from clubsite.photos.mailing import takedown_send
from games import calendar
from games.calendar.mailing import promoted_send, reminders_send
from games.calendar.models import Reply
from games.mailing import tournament_results_send
from games.models import Tournament
from scoring import services as scoring_services
from scoring.services import merge_confirm, merge_propose
from tests.clubsite.photos.photo_files import phone_photo
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.games.calendar_days import next_friday

pytestmark = pytest.mark.django_db

# What a page must escape and a text must not: a tag, an ampersand, both quotes. Every name
# rule of the site lets them through (``infra.name_text``: they are visible characters).
ODD = "<b>&\"'"
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
TEMPLATES = Path(settings.BASE_DIR) / "templates"


@pytest.fixture
def club(db: None) -> Club:
    """The tests' club (``rcwhist``), named oddly; the running night's fixtures use it."""
    return ClubFactory(name=f"Club {ODD}", slug="rcwhist", short_name=f"C {ODD}")


@pytest.fixture
def anne(club: Club) -> Player:
    """An admin of the club who signs in, with an address and an odd name."""
    user = UserFactory(username="anne", email="anne@example.org")
    return PlayerFactory(
        display_name=f"Anne {ODD}",
        email="anne@example.org",
        user=user,
        club=club,
        club__role=Membership.Role.ADMIN,
    )


def link_for(token: str) -> str:
    return f"{settings.SITE_URL}/lien/{token}/"


def calendar_reminder(club: Club, anne: Player, **fixtures: Any) -> None:
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(place=f"Salle {ODD}"))
    assert reminders_send(night.pk) >= 1


def calendar_promoted(club: Club, anne: Player, **fixtures: Any) -> None:
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(place=f"Salle {ODD}"))
    reply = Reply.objects.create(
        night=night, player=anne, answer=Reply.Answer.YES, answered=timezone.now()
    )
    assert promoted_send(reply.pk) == 1


def tournament_results(club: Club, anne: Player, running_night: Tournament, **fixtures) -> None:
    poule = min(running_night.poules.all(), key=lambda poule: poule.seats.count())
    scoring_services.deal_record(poule, EMBALLAGE)
    Tournament.objects.filter(pk=running_night.pk).update(name=f"Soirée {ODD}")
    player = poule.seats.first().player
    Player.objects.filter(pk=player.pk).update(display_name=f"Anne {ODD}", email="anne@x.org")
    assert tournament_results_send(running_night) >= 1
    mail.outbox[:] = [m for m in mail.outbox if m.to == ["anne@x.org"]]


def news_post(club: Club, anne: Player, **fixtures: Any) -> None:
    post = news_save(club, PostText(f"Nouvelles {ODD}", "Du *texte*.", timezone.localdate()))
    NewsPost.objects.filter(pk=post.pk).update(status="published", published_at=timezone.now())
    news_reader_set(club, anne, True)
    assert news_email_send(post.pk) == 1


def contact_message(club: Club, anne: Player, **fixtures: Any) -> None:
    Club.objects.filter(pk=club.pk).update(contact_email="info@example.org")
    contact = ContactMessage.objects.create(
        club=club, name=f"Bruno {ODD}", email="bruno@example.org", message=f"Bonjour {ODD}"
    )
    assert contact_send(contact.pk) == 1


def photo_takedown(club: Club, anne: Player, **fixtures: Any) -> None:
    album = photo_services.album_create(club, f"Album {ODD}", timezone.localdate())
    [photo] = photo_services.photos_upload(album, [phone_photo(size=(60, 40))], None)
    photo_services.photo_copies_make(photo.pk)
    photo_services.photo_takedown_ask(photo, anne.user)
    assert takedown_send(photo.pk) == 1


def club_closed(club: Club, anne: Player, **fixtures: Any) -> None:
    closing = club_close(club, typed_name=club.name, by=anne.user)
    assert club_closed_send(closing.pk) == 1


def federation_invitation(club: Club, anne: Player, **fixtures: Any) -> None:
    federation = federation_open(f"Ligue {ODD}")
    invitation = FederationInvitation.objects.create(federation=federation, club=club)
    assert federation_invitation_send(invitation.pk) == 1


def invitation(club: Club, anne: Player, **fixtures: Any) -> None:
    newcomer = PlayerFactory(display_name=f"Bruno {ODD}", club=club)
    invitation_send(club, newcomer, "bruno@example.org", None, link_for)


def claim_confirm(club: Club, anne: Player, **fixtures: Any) -> None:
    # His address on file is not the invited one: he confirms from the address on file.
    newcomer = PlayerFactory(display_name=f"Bruno {ODD}", email="bruno@example.org", club=club)
    sent = invitation_send(club, newcomer, "autre@example.org", None, link_for)
    mail.outbox.clear()
    invitation_accept(sent, "un-long-mot-de-passe-2024", confirm_link_for=link_for)


def email_change(club: Club, anne: Player, **fixtures: Any) -> None:
    _email_change_request(anne, "anne.neuve@example.org", link_for)


def join_request(club: Club, anne: Player, **fixtures: Any) -> None:
    asked = JoinRequest.objects.create(
        club=club, name=f"Bruno {ODD}", email="bruno@example.org", message=f"Bonjour {ODD}"
    )
    assert join_request_send(asked.pk) == 1


def merge_roles(club: Club, anne: Player, **fixtures: Any) -> None:
    other = ClubFactory(name=f"Autre {ODD}")
    PlayerFactory(user=UserFactory(username="admin-b"), club=other, club__role="admin")
    kept = PlayerFactory(display_name=f"Zoé {ODD}", user=UserFactory(username="zoe-a"), club=club)
    merged = PlayerFactory(
        display_name=f"Zoe {ODD}",
        user=UserFactory(username="zoe-b"),
        club=other,
        club__role=Membership.Role.SCORER,
    )
    operator = UserFactory(username="operateur", is_superuser=True)
    merge = merge_confirm(merge_propose(kept, merged, club, operator), merged.user)
    mail.outbox.clear()
    assert mailing.merge_roles_send(merge.pk) == 1


def signup(status: str) -> ClubSignup:
    return ClubSignup.objects.create(
        email="marie@example.org",
        name=f"Marie {ODD}",
        status=status,
        answers={"club": {"name": f"Club {ODD}", "town": f"Ville {ODD}"}},
    )


def signup_link(club: Club, anne: Player, **fixtures: Any) -> None:
    assert signup_link_send(signup(ClubSignup.Status.UNCONFIRMED).pk) == 1


def signup_operators(club: Club, anne: Player, **fixtures: Any) -> None:
    UserFactory(username="root", email="root@example.org", is_superuser=True)
    assert signup_operators_send(signup(ClubSignup.Status.WAITING).pk) == 1


def signup_decision_opened(club: Club, anne: Player, **fixtures: Any) -> None:
    opened = signup(ClubSignup.Status.OPENED)
    ClubSignup.objects.filter(pk=opened.pk).update(club=club)
    assert signup_decision_send(opened.pk) == 1


def signup_decision_refused(club: Club, anne: Player, **fixtures: Any) -> None:
    refused = signup(ClubSignup.Status.REFUSED)
    ClubSignup.objects.filter(pk=refused.pk).update(note=f"Non {ODD}")
    assert signup_decision_send(refused.pk) == 1


def password_reset(club: Club, anne: Player, client: Any, **fixtures: Any) -> None:
    # An address may hold an ampersand and an apostrophe, not a tag nor a double quote.
    odd_login = "anne&o'neil@example.org"
    UserFactory(username=odd_login, email=odd_login)
    client.post(reverse("password_reset"), {"email": odd_login})


# Every e-mail the site sends: how one goes, what its subject or text part holds as typed,
# and the templates it is made of.
KINDS: dict[str, tuple[Callable[..., None], str, set[str]]] = {
    "calendar_reminder": (calendar_reminder, f"C {ODD}", {"email/calendar_reminder"}),
    "calendar_promoted": (calendar_promoted, f"C {ODD}", {"email/calendar_promoted"}),
    "tournament_results": (tournament_results, f"Soirée {ODD}", {"email/tournament_results"}),
    "club_closed": (club_closed, f"Club {ODD}", {"email/club_closed"}),
    "news_post": (news_post, f"Nouvelles {ODD}", {"email/news_post"}),
    "contact_message": (contact_message, f"Bruno {ODD}", {"email/contact_message"}),
    "photo_takedown": (photo_takedown, f"Album {ODD}", {"email/photo_takedown"}),
    "federation_invitation": (
        federation_invitation,
        f"Ligue {ODD}",
        {"email/federation_invitation"},
    ),
    "invitation": (invitation, f"Club {ODD}", {"email/invitation"}),
    "claim_confirm": (claim_confirm, f"Bruno {ODD}", {"email/claim_confirm"}),
    "email_change": (email_change, f"Anne {ODD}", {"email/email_change"}),
    "join_request": (join_request, f"Bruno {ODD}", {"email/join_request"}),
    "merge_roles": (merge_roles, f"Autre {ODD}", {"email/merge_roles"}),
    "signup_link": (signup_link, f"Marie {ODD}", {"email/signup_link"}),
    "signup_operators": (signup_operators, f"Club {ODD}", {"email/signup_operators"}),
    "signup_decision_opened": (signup_decision_opened, f"Club {ODD}", {"email/signup_decision"}),
    "signup_decision_refused": (
        signup_decision_refused,
        f"Club {ODD}",
        {"email/signup_decision"},
    ),
    "password_reset": (
        password_reset,
        "anne&o'neil@example.org",
        {"registration/password_reset_subject.txt", "registration/password_reset_email.html"},
    ),
}


def template_names(kind: str) -> set[str]:
    """The template files of ``kind``: a stem stands for its subject, text and HTML parts."""
    names = set()
    for name in KINDS[kind][2]:
        if name.startswith("email/"):
            stem = TEMPLATES / name
            parts = [Path(f"{stem}_subject.txt"), Path(f"{stem}.txt"), Path(f"{stem}.html")]
            names |= {str(p.relative_to(TEMPLATES)) for p in parts if p.exists()}
        else:
            names.add(name)
    return names


def sent(kind: str, request: pytest.FixtureRequest, club: Club, anne: Player) -> list[str]:
    """Send one e-mail of ``kind``; the names of the templates its sending rendered."""
    rendered: list[str] = []

    def seen(sender: Any, template: Any, **kwargs: Any) -> None:
        rendered.append(template.name)

    fixtures = {"client": request.getfixturevalue("client")}
    if kind == "tournament_results":
        fixtures["running_night"] = request.getfixturevalue("running_night")
    mail.outbox.clear()
    template_rendered.connect(seen)
    try:
        KINDS[kind][0](club, anne, **fixtures)
    finally:
        template_rendered.disconnect(seen)
    return rendered


@pytest.mark.parametrize("kind", KINDS)
def test_each_email_keeps_names_as_typed_in_its_subject_and_text_and_escapes_them_in_html(
    kind: str, request: pytest.FixtureRequest, club: Club, anne: Player
) -> None:
    rendered = sent(kind, request, club, anne)
    assert template_names(kind) <= set(rendered)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    expected = KINDS[kind][1]
    assert "&amp;" not in message.subject and "&lt;" not in message.subject
    assert "&amp;" not in message.body and "&lt;" not in message.body
    assert "&#" not in message.subject + message.body and "&quot;" not in message.body
    assert expected in message.subject or expected in message.body
    assert "\n" not in message.subject
    for part, mimetype in getattr(message, "alternatives", []):
        assert mimetype == "text/html"
        assert "<b>&" not in part  # the name is never markup
        assert html.unescape(part).count(ODD) >= 1
        assert "&lt;b&gt;&amp;" in part


@pytest.mark.parametrize("kind", ["calendar_reminder", "club_closed", "invitation"])
def test_a_subject_holds_an_odd_name_as_typed(
    kind: str, request: pytest.FixtureRequest, club: Club, anne: Player
) -> None:
    sent(kind, request, club, anne)
    assert ODD in mail.outbox[0].subject


def test_a_reminder_says_where_its_reader_stops_them(
    request: pytest.FixtureRequest, club: Club, anne: Player
) -> None:
    sent("calendar_reminder", request, club, anne)
    link = mail.outbox[0].extra_headers["List-Unsubscribe"]
    assert link.startswith(f"<{settings.SITE_URL}") and link.endswith(">")
    assert link[1:-1] in mail.outbox[0].body


@pytest.mark.parametrize("kind", ["calendar_reminder", "tournament_results", "news_post"])
def test_a_bulk_email_offers_its_one_click_way_out_and_names_the_club(
    kind: str, request: pytest.FixtureRequest, club: Club, anne: Player, client: Any
) -> None:
    sent(kind, request, club, anne)
    message = mail.outbox[0].message()
    link = message["List-Unsubscribe"]
    assert link.startswith(f"<{settings.SITE_URL}/desabonnement/") and link.endswith(">")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The link stops this kind of mail in one POST, with no login and no CSRF token.
    path = link[1 + len(settings.SITE_URL) : -1]
    assert client.post(path).status_code == 200
    # « Club <b>&"' » is the sender's name, encoded as a header must be.
    name, address = parseaddr(str(make_header(decode_header(message["From"]))))
    assert name == f"Club {ODD}" and address == parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    html_part = mail.outbox[0].alternatives[0][0]
    assert "<title>" in html_part and html.escape(mail.outbox[0].subject) in html_part


def email_templates() -> set[str]:
    """Every e-mail template on disk: the e-mails' folder, the password reset's, and any
    subject anywhere."""
    found = {p for p in TEMPLATES.glob("email/*") if p.suffix in {".txt", ".html"}}
    found |= set(TEMPLATES.glob("registration/*_email*")) | set(TEMPLATES.rglob("*subject*"))
    return {str(path.relative_to(TEMPLATES)) for path in found}


def test_every_email_template_on_disk_is_one_of_the_kinds_above() -> None:
    named = set().union(*(template_names(kind) for kind in KINDS))
    missing = email_templates() - named
    assert not missing, f"add the e-mail made of {sorted(missing)} to KINDS"
