"""A secretary signs her club up from the home page: her address confirmed by the e-mailed
link, her account, the club, its first season and ranking rules; the club opens at once, waits
for the operator's approval, or the site takes none. Every refusal is said in words, and nothing
of the club exists until it opens."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Club, ClubSignup, Membership, Player, Season
from club.services import signup as service
from club.services.signup_opening import signup_approve, signup_purge, signup_refuse
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/inscription/confirmer/[^/\s]+/)")
PASSWORD = "trefle-carreau-pique-coeur"
THIS_YEAR = datetime.date.today().year
CLUB_ANSWERS = {"name": "Whist Club de Ciney", "town": "Ciney", "default_rules": "rcwhist"}
SEASON_ANSWERS = {
    "name": str(THIS_YEAR),
    "start": f"{THIS_YEAR}-01-01",
    "end": f"{THIS_YEAR}-12-31",
    "ranking_best_n": "18",
    "ranking_min_tournaments": "5",
    "precedence_1": "tournament_points",
    "precedence_2": "game_points",
    "precedence_3": "",
}


def answered_sign_up(status: str) -> ClubSignup:
    """Marie's sign-up of the Whist Club de Ciney, every step answered, her account open."""
    marie = UserFactory(username="marie@example.org", email="marie@example.org")
    season = {
        "name": "2025",
        "start": "2025-01-01",
        "end": "2025-12-31",
        "ranking_best_n": None,
        "ranking_min_tournaments": 0,
        "ranking_precedence": ["tournament_points"],
    }
    return ClubSignup.objects.create(
        email=marie.email,
        name="Marie Lambert",
        user=marie,
        status=status,
        answers={"club": {**CLUB_ANSWERS, "listed": True}, "season": season},
    )


def text(response) -> str:
    """The page as a reader reads it (its apostrophes unescaped)."""
    return html.unescape(response.content.decode())


@pytest.fixture
def mode(settings):
    def set_mode(value: str) -> None:
        settings.CLUB_SIGNUP = value

    set_mode("open")
    return set_mode


@pytest.fixture
def sent(client, mailoutbox, django_capture_on_commit_callbacks):
    """Start a sign-up as a stranger; returns the confirmation link's path."""

    def start(email: str = "marie@example.org", name: str = "Marie Lambert") -> str:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("signup-start"), {"email": email, "name": name})
        assert response.status_code == 302, text(response)
        return LINK.search(mailoutbox[-1].body).group(1)

    return start


@pytest.fixture
def drafted(client, sent):
    """A sign-up confirmed, its club and season answered: ready to send."""

    def draft(club: dict | None = None) -> None:
        link = sent()
        client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
        response = client.post(reverse("signup-club"), {**CLUB_ANSWERS, **(club or {})})
        assert response.status_code == 302, text(response)
        response = client.post(reverse("signup-season"), SEASON_ANSWERS)
        assert response.status_code == 302, text(response)

    return draft


def test_open_a_stranger_signs_her_club_up_and_it_opens_at_once(client, mode, drafted):
    drafted({"listed": "on"})

    response = client.post(reverse("signup-review"))

    club = Club.objects.get(name="Whist Club de Ciney")
    assert response.url == reverse("club-detail", args=[club.slug])
    assert (club.slug, club.town, club.listed) == ("whist-club-de-ciney", "Ciney", True)
    assert (club.ranking_best_n, club.ranking_min_tournaments) == (18, 5)
    marie = Player.objects.get(user__email="marie@example.org")
    assert marie.display_name == "Marie Lambert"
    assert Membership.objects.get(club=club, player=marie).role == Membership.Role.ADMIN
    season = Season.objects.get(club=club)
    assert (season.name, season.start) == (str(THIS_YEAR), datetime.date(THIS_YEAR, 1, 1))
    assert ClubSignup.objects.get().status == ClubSignup.Status.OPENED
    page = text(client.get(response.url))
    assert "Premiers pas du club" in page


def test_the_confirmation_link_opens_the_account_and_the_steps_resume_after_a_login(
    client, mode, sent
):
    link = sent()
    assert not get_user_model().objects.filter(email="marie@example.org").exists()
    response = client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.url == reverse("signup-club")
    client.post(reverse("signup-club"), CLUB_ANSWERS)
    client.logout()

    # Back another day: the link, then a login, lead to the step she had reached.
    response = client.get(link)
    assert response.url.startswith(reverse("login"))
    client.login(username="marie@example.org", password=PASSWORD)
    assert client.get(reverse("signup-start")).url == reverse("signup-season")
    page = text(client.get(reverse("signup-club")))
    assert 'value="Whist Club de Ciney"' in page


def test_approval_the_club_waits_for_the_operator_who_is_emailed_then_approves(
    client, mode, drafted, superuser, mailoutbox, django_capture_on_commit_callbacks
):
    mode("approval")
    superuser.email = "operateur@example.org"
    superuser.save()
    drafted()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("signup-review"))

    assert response.url == reverse("signup-start")
    assert not Club.objects.filter(name="Whist Club de Ciney").exists()
    signup = ClubSignup.objects.get()
    assert signup.status == ClubSignup.Status.WAITING
    told = mailoutbox[-1]
    assert told.to == ["operateur@example.org"]
    assert "Whist Club de Ciney" in told.subject
    assert "/admin/club/clubsignup/?status__exact=waiting" in told.body
    assert "attend l'accord" in text(client.get(reverse("signup-start")))

    with django_capture_on_commit_callbacks(execute=True):
        club = signup_approve(signup, superuser)

    assert club.signup == signup
    answer = mailoutbox[-1]
    assert answer.to == ["marie@example.org"] and "est ouvert" in answer.subject
    assert f"/clubs/{club.slug}/" in answer.body
    assert Membership.objects.get(club=club).player.user.email == "marie@example.org"


def test_approval_refused_nothing_of_the_club_is_made_and_the_secretary_reads_why(
    client, mode, drafted, superuser, mailoutbox, django_capture_on_commit_callbacks
):
    mode("approval")
    drafted()
    client.post(reverse("signup-review"))
    signup = ClubSignup.objects.get()

    with django_capture_on_commit_callbacks(execute=True):
        signup_refuse(signup, superuser, "Ce site est réservé aux clubs du Namurois.")

    assert not Club.objects.filter(name="Whist Club de Ciney").exists()
    assert "réservé aux clubs du Namurois" in mailoutbox[-1].body
    page = text(client.get(reverse("signup-start")))
    assert "n'a pas ouvert le club Whist Club de Ciney" in page


def test_closed_the_sign_up_is_a_polite_page_and_refuses_a_post(client, mode, mailoutbox):
    mode("closed")

    page = client.get(reverse("signup-start"))
    posted = client.post(reverse("signup-start"), {"email": "a@example.org", "name": "A B"})

    assert page.status_code == 200
    assert "n'accueille pas de nouveaux clubs" in text(page)
    assert posted.status_code == 200 and not ClubSignup.objects.exists()
    assert mailoutbox == []
    assert "Créer un club" not in text(client.get(reverse("home")))


def test_closed_an_unfinished_sign_up_cannot_be_sent(client, mode, drafted):
    drafted()
    mode("closed")

    response = client.post(reverse("signup-review"))

    assert "n'accueille pas de nouveaux clubs" in text(response)
    assert not Club.objects.filter(name="Whist Club de Ciney").exists()


def test_a_club_name_taken_is_refused_in_words_whatever_its_accents_and_case(client, mode, sent):
    ClubFactory(name="Cercle des Cœurs de Namur")
    client.post(sent(), {"new_password1": PASSWORD, "new_password2": PASSWORD})

    response = client.post(
        reverse("signup-club"), {**CLUB_ANSWERS, "name": "cercle des coeurs de namur"}
    )

    assert response.status_code == 200
    assert "Le club « Cercle des Cœurs de Namur » existe déjà" in text(response)
    assert "club" not in ClubSignup.objects.get().answers


def test_a_name_that_makes_a_taken_address_is_refused(client, mode, sent):
    ClubFactory(name="Whist-Club Ciney", slug="whist-club-ciney")
    client.post(sent(), {"new_password1": PASSWORD, "new_password2": PASSWORD})

    response = client.post(reverse("signup-club"), {**CLUB_ANSWERS, "name": "Whist Club, Ciney"})

    assert "/clubs/whist-club-ciney/" in text(response)


def test_a_name_taken_between_the_step_and_the_sending_is_refused_and_nothing_is_made(
    client, mode, drafted
):
    drafted()
    ClubFactory(name="Whist Club de Ciney", slug="ciney")

    response = client.post(reverse("signup-review"))

    assert "existe déjà" in text(response)
    assert Club.objects.filter(name="Whist Club de Ciney").count() == 1
    assert not Season.objects.filter(club__slug="whist-club-de-ciney").exists()
    assert ClubSignup.objects.get().status == ClubSignup.Status.DRAFT


def test_a_name_waiting_for_the_operator_is_refused_to_another_sign_up(mode, superuser):
    other = ClubSignup.objects.create(
        email="x@example.org",
        name="X",
        status=ClubSignup.Status.WAITING,
        answers={"club": {"name": "Whist Club de Ciney"}},
    )
    signup = ClubSignup.objects.create(
        email="y@example.org", name="Y", status=ClubSignup.Status.DRAFT, user=UserFactory()
    )

    with pytest.raises(Exception, match="attend déjà l'accord"):
        service.signup_club_set(
            signup, name="Whist club de Ciney", town="", default_rules="rcwhist", listed=False
        )
    assert other.status == ClubSignup.Status.WAITING


def test_a_second_sign_up_from_one_address_sends_a_new_link_and_says_what_it_says_to_all(
    client, mode, sent, mailoutbox, django_capture_on_commit_callbacks
):
    first = sent()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("signup-start"), {"email": "Marie@Example.org", "name": "Marie Lambert"}
        )

    # Nothing on the page says a sign-up of this address waits: a stranger learns nothing.
    assert response.url == reverse("signup-sent")
    assert ClubSignup.objects.count() == 1
    again = LINK.search(mailoutbox[-1].body).group(1)
    assert again != first
    # A stranger who types her address voids nothing of hers: both links work.
    assert client.get(first).status_code == 200
    assert client.get(again).status_code == 200


def test_a_stranger_starting_a_sign_up_with_her_address_leaves_her_link_working(
    client, mode, sent, mailoutbox, django_capture_on_commit_callbacks
):
    first = sent()
    stranger = Client()
    with django_capture_on_commit_callbacks(execute=True):
        stranger.post(reverse("signup-start"), {"email": "marie@example.org", "name": "X"})

    # Marie opens her account from the link she had.
    response = client.post(first, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302, text(response)
    assert ClubSignup.objects.get().status == ClubSignup.Status.DRAFT
    assert ClubSignup.objects.get().name == "Marie Lambert"


def test_every_link_of_a_sign_up_expires_with_it(
    client, mode, sent, mailoutbox, django_capture_on_commit_callbacks
):
    first = sent()
    second = sent()
    ClubSignup.objects.update(
        created=timezone.now() - datetime.timedelta(days=service.LINK_DAYS, minutes=1)
    )
    assert client.get(first).status_code == 404
    assert client.get(second).status_code == 404


def test_links_to_one_mailbox_stop_at_the_days_limit_and_the_page_says_the_same(
    client, mode, sent, mailoutbox, django_capture_on_commit_callbacks
):
    sent()
    again = {"email": "marie@example.org", "name": "Marie Lambert"}
    # The first link, then a sign-up started again, a link asked again, and once more.
    for data in (again, {"email": "marie@example.org", "resend": "1"}, again):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("signup-start"), data)
        assert response.url == reverse("signup-sent")

    assert len(mailoutbox) == service.SIGNUP_MAILBOX.attempts


def test_an_address_with_an_account_is_answered_as_any_other_and_nothing_is_made(
    client, mode, member, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("signup-start"), {"email": member.email.upper(), "name": "Quelqu'un"}
        )

    # Whose address has an account is not said to whoever types it; the page tells a
    # secretary who has one to log in first.
    assert response.url == reverse("signup-sent")
    assert "connectez-vous, puis revenez" in text(client.get(response.url))
    assert not ClubSignup.objects.exists() and mailoutbox == []


def test_a_logged_in_member_signs_his_own_club_up_and_stays_one_player(client, mode, outsider):
    client.force_login(outsider)
    assert client.get(reverse("signup-start")).status_code == 200

    response = client.post(reverse("signup-start"))
    assert response.url == reverse("signup-club")
    client.post(reverse("signup-club"), CLUB_ANSWERS)
    client.post(reverse("signup-season"), SEASON_ANSWERS)
    client.post(reverse("signup-review"))

    club = Club.objects.get(name="Whist Club de Ciney")
    player = Player.objects.get(user=outsider)
    assert Membership.objects.get(club=club).player == player
    assert Player.objects.filter(user=outsider).count() == 1


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"email": "pas-une-adresse", "name": "Marie"}, "adresse e-mail valide"),
        ({"email": "m@example.org", "name": ""}, "Ce champ est obligatoire"),
        ({"email": "m@example.org", "name": "Marie\u200bLambert"}, "caractère invisible"),
    ],
)
def test_bad_fields_of_the_first_step_are_refused(client, mode, fields, words):
    response = client.post(reverse("signup-start"), fields)

    assert response.status_code == 200
    assert words in text(response)
    assert not ClubSignup.objects.exists()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"name": "♠♠♠"}, "des lettres ou des chiffres"),
        ({"name": ""}, "Ce champ est obligatoire"),
        ({"default_rules": "poker"}, "Sélectionnez un choix valide"),
    ],
)
def test_bad_fields_of_the_club_step_are_refused(client, mode, sent, fields, words):
    client.post(sent(), {"new_password1": PASSWORD, "new_password2": PASSWORD})

    response = client.post(reverse("signup-club"), {**CLUB_ANSWERS, **fields})

    assert words in text(response)
    assert "club" not in ClubSignup.objects.get().answers


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"end": f"{THIS_YEAR - 1}-01-01"}, "se termine avant de commencer"),
        ({"start": "1850-01-01"}, "hors des dates possibles"),
        ({"precedence_2": "tournament_points"}, "Chaque critère ne compte qu'une fois"),
        ({"ranking_best_n": "0"}, "supérieure ou égale à 1"),
    ],
)
def test_bad_fields_of_the_season_step_are_refused(client, mode, sent, fields, words):
    client.post(sent(), {"new_password1": PASSWORD, "new_password2": PASSWORD})
    client.post(reverse("signup-club"), CLUB_ANSWERS)

    response = client.post(reverse("signup-season"), {**SEASON_ANSWERS, **fields})

    assert words in text(response)
    assert "season" not in ClubSignup.objects.get().answers


def test_a_weak_password_is_refused_and_no_account_opens(client, mode, sent):
    link = sent()

    response = client.post(link, {"new_password1": "1234", "new_password2": "1234"})

    assert response.status_code == 200
    assert not get_user_model().objects.filter(email="marie@example.org").exists()
    assert ClubSignup.objects.get().status == ClubSignup.Status.UNCONFIRMED


def test_a_robot_filling_the_hidden_field_is_thanked_and_nothing_is_made(client, mode, mailoutbox):
    response = client.post(
        reverse("signup-start"),
        {"email": "bot@example.org", "name": "Bot", "website": "http://spam.example"},
    )

    assert response.url == reverse("signup-sent")
    assert not ClubSignup.objects.exists() and mailoutbox == []


def test_the_throttle_stops_a_sixth_sign_up_from_one_address_within_the_hour(client, mode):
    for n in range(5):
        client.post(reverse("signup-start"), {"email": f"m{n}@example.org", "name": "M"})

    response = client.post(reverse("signup-start"), {"email": "m9@example.org", "name": "M"})

    assert "Trop de demandes d'inscription" in text(response)
    assert ClubSignup.objects.count() == 5


def test_an_expired_link_is_refused_and_the_sign_up_is_purged(client, mode, sent):
    link = sent()
    ClubSignup.objects.update(created=timezone.now() - datetime.timedelta(days=8))

    assert client.get(link).status_code == 404
    assert signup_purge() == 1
    assert not ClubSignup.objects.exists()


def test_the_steps_are_the_secretarys_own(client, mode, sent, member):
    link = sent()
    client.force_login(member)

    # A member with no sign-up in progress is sent to its start, never to another's steps.
    assert client.get(reverse("signup-club")).url == reverse("signup-start")
    assert client.get(reverse("signup-review")).url == reverse("signup-start")
    # Somebody else's link asks him to log out first, and opens nothing under his login.
    assert "déconnectez-vous d'abord" in text(client.get(link))
    assert client.post(link, {"new_password1": PASSWORD}).status_code == 403
    assert ClubSignup.objects.get().status == ClubSignup.Status.UNCONFIRMED


def test_an_approval_of_a_sign_up_no_longer_waiting_is_refused(mode, superuser):
    signup = ClubSignup.objects.create(
        email="x@example.org", name="X", status=ClubSignup.Status.REFUSED
    )

    with pytest.raises(Exception, match="n'est plus"):
        signup_approve(signup, superuser)


def test_the_admin_lists_the_waiting_sign_ups_and_approves_them_by_an_action(
    client, mode, superuser
):
    signup = answered_sign_up(ClubSignup.Status.WAITING)
    client.force_login(superuser)
    listing = client.get(reverse("admin:club_clubsignup_changelist")).content.decode()
    assert "Whist Club de Ciney" in listing

    client.post(
        reverse("admin:club_clubsignup_changelist"),
        {"action": "approve", "_selected_action": [signup.pk]},
    )

    assert Club.objects.get(name="Whist Club de Ciney").signup == signup


def test_a_member_of_another_club_who_signs_up_keeps_his_one_player(mode, outsider):
    before = Player.objects.count()
    PlayerFactory()  # somebody else, unrelated
    signup = service.signup_begin(outsider, "fr")

    assert signup.name == outsider.player.display_name
    assert Player.objects.count() == before + 1


def test_a_new_link_asked_for_an_address_with_a_nul_finds_nothing_and_says_the_same(
    client, mode, mailoutbox
):
    response = client.post(reverse("signup-start"), {"email": "m\x00@example.org", "resend": "1"})

    assert response.url == reverse("signup-sent")
    assert mailoutbox == []
