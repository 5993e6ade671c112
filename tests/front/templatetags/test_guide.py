"""Every button and link the guide quotes (``{% ui %}``) is on the page it names, in each of
the guide's languages: the guide's pages are read as a reader gets them, then the pages they
name are drawn from the demo (RCWhist, as its president sees it, plus a night running, one
closed, a night planned, a member invited) and each quoted name is looked for in them."""

from __future__ import annotations

import datetime
import html
import io
import re
from collections import defaultdict
from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from club.invitations import invitation_send
from club.models import Club, Player
from front.guide import GUIDE_LANGUAGES, PAGES
from front.templatetags.guide import QUOTES, ui
from games.calendar.planning import NightPlan, night_plan
from games.models import Tournament
from scoring import services as scoring
from tests.club.views.test_member import night_with
from tests.club.views.test_member_import import columns_confirmed, members_rows, upload, xlsx_of
from tests.club.views.test_signup import CLUB_ANSWERS, LINK, PASSWORD, SEASON_ANSWERS
from tests.e2e.test_phone_sheet import a_night, belgian_deals

pytestmark = pytest.mark.django_db(transaction=False)

QUOTED = re.compile(r'<strong class="ui" data-page="([^"]+)">(.*?)</strong>', re.S)


def test_a_name_is_the_pages_own_string_in_the_readers_quotes():
    with translation.override("en"):
        assert ui("Ajouter un joueur", "members") == (
            '<strong class="ui" data-page="members">“Add a player”</strong>'
        )
    with translation.override("fr"):
        assert ui("Ajouter un joueur", "members").endswith(
            ">«\u00a0Ajouter un joueur\u00a0»</strong>"
        )


def reader(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def quoted_names(language: str) -> dict[str, set[str]]:
    """Each page the guide names (a URL name) → the names it quotes on it, as a reader reads
    them (without the quotation marks)."""
    before, after = QUOTES[language]
    names: dict[str, set[str]] = defaultdict(set)
    for slug in PAGES:
        page = reader(language).get(reverse("guide-page", args=[slug])).content.decode()
        for key, text in QUOTED.findall(page):
            names[key].add(html.unescape(text).removeprefix(before).removesuffix(after))
    return names


def text_of(response) -> str:
    """The page's body as a reader reads it (its title, in the browser's tab, left out)."""
    assert response.status_code == 200, (response.request["PATH_INFO"], response.status_code)
    return html.unescape(response.content.decode().partition("<body")[2])


def signed_up_to_the_review(client: Client, mailoutbox, email: str, committed) -> Client:
    """A stranger's sign-up, every step answered, up to its last page."""
    with committed(execute=True):
        client.post(reverse("signup-start"), {"email": email, "name": "Marie Lambert"})
    link = LINK.search(mailoutbox[-1].body).group(1)
    client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    client.post(reverse("signup-club"), {**CLUB_ANSWERS, "name": f"Whist {email[:5]}"})
    client.post(reverse("signup-season"), SEASON_ANSWERS)
    return client


@pytest.fixture
def demo(django_capture_on_commit_callbacks, settings, mailoutbox):
    """The demo with what the guide's pages show beyond it, and each named page's drawers."""
    settings.CLUB_SIGNUP = "open"
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())
    club = Club.objects.get(name="RCWhist La Chevalerie")
    admin = get_user_model().objects.get(username="admin")
    season = club.seasons.order_by("-start").first()
    running = a_night(club, season, "rcwhist", 8)
    on_phone, on_paper = running.poules.order_by("table")
    scoring.deals_record(on_phone, belgian_deals(on_phone.seats.count(), 5))
    closed = night_with(
        season,
        60,
        list(Player.objects.in_club(club).order_by("pk")[:4]),
        [{"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}],
        publish=False,
    )
    published = Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED).last()
    planned = night_plan(club, datetime.date.today() + datetime.timedelta(days=7), NightPlan())
    invited = Player.objects.in_club(club).filter(user__isnull=True).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        invitation_send(club, invited, "invite@example.org", admin, lambda token: token)
    at = {"slug": club.slug}
    signups: dict[str, Client] = {}

    def pages(language: str) -> dict[str, Callable[[], list[str]]]:
        def seen(*addresses: str) -> Callable[[], list[str]]:
            def draw() -> list[str]:
                client = reader(language)
                client.force_login(admin)
                return [text_of(client.get(address)) for address in addresses]

            return draw

        def anonymous(address: str) -> Callable[[], list[str]]:
            return lambda: [text_of(reader(language).get(address))]

        def member_import(step: int) -> Callable[[], list[str]]:
            def draw() -> list[str]:
                client = reader(language)
                client.force_login(admin)
                upload(client, club, "membres.xlsx", xlsx_of(members_rows(5)))
                if step == 1:
                    return [text_of(client.get(reverse("member-import-columns", kwargs=at)))]
                columns_confirmed(client, club)
                return [text_of(client.get(reverse("member-import-review", kwargs=at)))]

            return draw

        def review() -> list[str]:
            # Two sign-ups (one address may send five an hour), read in each language.
            texts = []
            for mode in ("open", "approval"):
                settings.CLUB_SIGNUP = mode
                if mode not in signups:
                    signups[mode] = signed_up_to_the_review(
                        Client(),
                        mailoutbox,
                        f"{mode}@example.org",
                        django_capture_on_commit_callbacks,
                    )
                signups[mode].cookies[settings.LANGUAGE_COOKIE_NAME] = language
                texts.append(text_of(signups[mode].get(reverse("signup-review"))))
            settings.CLUB_SIGNUP = "open"
            return texts

        def night(name: str, tournament: Tournament, **more) -> str:
            return reverse(name, kwargs={**at, "pk": tournament.pk, **more})

        return {
            "home": anonymous("/"),
            "signup-start": anonymous(reverse("signup-start")),
            "signup-review": review,
            "club-detail": seen(reverse("club-detail", kwargs=at)),
            "club-admin": seen(reverse("club-admin", kwargs=at)),
            "club-settings": seen(reverse("club-settings", kwargs=at)),
            "join-requests": seen(reverse("join-requests", kwargs=at)),
            "members": seen(reverse("members", kwargs=at)),
            "member-import-columns": member_import(1),
            "member-import-review": member_import(2),
            "games:tournament-create": seen(reverse("games:tournament-create", kwargs=at)),
            "games:presence": seen(night("games:presence", running)),
            "games:tournament": seen(
                *(night("games:tournament", n) for n in (running, closed, published))
            ),
            "games:sheet": seen(night("games:sheet", running, poule_pk=on_phone.pk)),
            "games:sheet-entry": seen(night("games:sheet-entry", running, poule_pk=on_paper.pk)),
            "games:calendar": seen(reverse("games:calendar", kwargs=at)),
            "games:calendar-replies": seen(night("games:calendar-replies", planned)),
            "ranking": seen(reverse("ranking", kwargs=at)),
            "games:results": seen(night("games:results", published)),
            "night-ratings": seen(night("night-ratings", published)),
            "my-results": seen(reverse("my-results")),
        }

    return pages


def test_every_name_the_guide_quotes_is_on_the_page_it_names_in_each_language(demo):
    # One demo for the three languages: it is most of the test's time.
    missing = []
    for language in GUIDE_LANGUAGES:
        names = quoted_names(language)
        pages = demo(language)
        assert set(names) <= set(pages), f"no drawer for {set(names) - set(pages)}"
        for key, quoted in sorted(names.items()):
            texts = pages[key]()
            missing += [
                (language, key, name)
                for name in sorted(quoted)
                if not any(name in t for t in texts)
            ]
        assert sum(len(quoted) for quoted in names.values()) >= 30
    assert not missing, "names the guide quotes that their page no longer shows"
