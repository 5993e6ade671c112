"""Every address of the site, with every role: what each may do, from the URL resolver itself.
A new page without an entry here fails the test, so that nobody forgets to decide who may see
it. The club's members are told they may not (403); the public and other clubs learn nothing
of a club's private pages (404); the login page is where a visitor is sent to sign in (302).

Each request runs in a transaction rolled back afterwards: an admin's POST leaves the world as
the next role finds it."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from club import services as club_services
from club.models import JoinRequest, Membership, Player, PlayerMerge
from clubsite import pages as site_pages
from clubsite.models import Page as SitePage
from clubsite.photos import services as photo_services
from games import calendar
from games.models import Deal, PlannedNight, Poule, Tournament
from scoring import services as scoring_services
from tests.clubsite.helpers import post_of
from tests.clubsite.photos.photo_files import phone_photo
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "member", "scorer", "club_admin", "other_club_admin", "federation_admin")
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


def statuses(
    anonymous: int,
    member: int,
    scorer: int,
    club_admin: int,
    other: int,
    federation_admin: int | None = None,
) -> dict:
    """What each role gets. The federation's admin plays at another club of the federation:
    unless said otherwise, the club's pages treat him as they treat another club's admin."""
    federation_admin = other if federation_admin is None else federation_admin
    got = (anonymous, member, scorer, club_admin, other, federation_admin)
    return dict(zip(ROLES, got, strict=True))


EVERYBODY = statuses(200, 200, 200, 200, 200)
SIGNED_IN = statuses(302, 200, 200, 200, 200)
NOT_FOUND = statuses(404, 404, 404, 404, 404)
# Pages of a running (unpublished) night: its scorers only.
SCORERS_PAGE = statuses(404, 403, 200, 200, 404)
SCORERS_FORM = statuses(302, 403, 200, 200, 404)
SCORERS_ACTION = statuses(302, 403, 302, 302, 404)
ADMINS_ACTION = statuses(302, 403, 403, 302, 404)
ADMINS_PAGE = statuses(302, 403, 403, 200, 404)
# The JSON API answers the public 401 (with the token scheme to use) where the site would send
# it to the login page; a body the scorer did not send answers 400 once he is let in.
API_SIGNED_IN = statuses(401, 200, 200, 200, 200)
API_SCORERS_READ = statuses(404, 403, 200, 200, 404)
API_SCORERS_POST = statuses(401, 403, 400, 400, 404)
# A federation's management: its administrators only (the club's admin has no right in it).
FEDERATION_ADMINS_PAGE = statuses(302, 403, 403, 403, 403, federation_admin=200)
FEDERATION_ADMINS_ACTION = statuses(302, 403, 403, 403, 403, federation_admin=302)


class World:
    """A club with a running night (round 1 drawn, one deal recorded), another club, a
    federation of the club and a neighbour with its 2024 season, and a user per role."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.club = request.getfixturevalue("club")
        self.season = request.getfixturevalue("season")
        self.night: Tournament = request.getfixturevalue("running_night")
        self.poule = Poule.objects.filter(tournament=self.night, round=1).first()
        self.deal: Deal = scoring_services.deal_record(self.poule, SOLO)
        self.users: dict[str, AbstractBaseUser | None] = {
            "anonymous": None,
            "member": request.getfixturevalue("member"),
            "scorer": request.getfixturevalue("scorer"),
            "club_admin": request.getfixturevalue("club_admin"),
            "other_club_admin": persona(
                ClubFactory(name="Whist Club Liège"), "admin-liege", Membership.Role.ADMIN
            ),
        }
        self.player: Player = self.users["member"].player
        neighbour = ClubFactory(name="Cercle voisin")
        self.federation = club_services.federation_open(
            "Ligue du Brabant", clubs=[self.club, neighbour]
        )
        self.federation_season = club_services.federation_season_create(
            self.federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
        )
        self.users["federation_admin"] = persona(neighbour, "ligue", Membership.Role.MEMBER)
        club_services.federation_admin_add(self.federation, self.users["federation_admin"].player)
        self.neighbour = neighbour
        # A night on the club's calendar, a week ahead.
        self.planned: PlannedNight = calendar.night_plan(
            self.club, datetime.date.today() + datetime.timedelta(days=7), calendar.NightPlan()
        )

    def federation_url(self, name: str, *args: Any) -> str:
        return reverse(name, args=[self.federation.slug, *args])

    def planned_url(self, name: str) -> str:
        return reverse(name, args=[self.club.slug, self.planned.pk])

    def night_url(self, name: str, **kwargs: Any) -> str:
        return reverse(name, kwargs={"slug": self.club.slug, "pk": self.night.pk, **kwargs})


def api_federation_season(w: World) -> tuple[str, str]:
    """The club's federation and its season (the world's own if it has one, else opened
    here), its ranking computed: the federation's API addresses are public."""
    federation = w.club.federations.first() or club_services.federation_open(
        "Ligue du monde", clubs=[w.club]
    )
    season = federation.seasons.first() or club_services.federation_season_create(
        federation, "Championnat", w.season.start, w.season.end
    )
    scoring_services.federation_ranking_update(season)
    return federation.slug, season.slug


def proposed_merge(w: World) -> int:
    """The member's record and a record at the neighbouring club, a merge proposed by the
    club: the member may decide it, the club's admins may withdraw it."""
    other = PlayerFactory(display_name="Autre fiche", club=w.neighbour)
    return PlayerMerge.objects.create(kept=w.player, merged=other, club=w.club).pk


def public_federation(world: World) -> str:
    """The slug of a federation of the world's club with its 2024 season."""
    federation = club_services.federation_open("Ligue publique", clubs=[world.club])
    club_services.federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    return federation.slug


def federation_question(w: World) -> int:
    """Another federation asks the world's club to join: its admins answer, nobody else."""
    other = club_services.federation_open("Ligue de Namur", clubs=[ClubFactory(name="Namur")])
    return club_services.federation_club_invite(other, w.club, by=None).pk


def federation_invitation(w: World) -> int:
    """The world's federation asks a club of the site: its administrators may withdraw it."""
    asked = ClubFactory(name="Whist Club de Wavre")
    return club_services.federation_club_invite(w.federation, asked, by=None).pk


def imported_line_url(w: World) -> str:
    """A line of the club's 2015 ranking, imported from its table."""
    lines = scoring_services.ranking_lines_read(
        [["1", w.player.display_name, "12"]], {"rank": 0, "name": 1, "points": 2}, header=False
    )
    snapshot = scoring_services.ranking_import(
        w.club,
        "2015",
        datetime.date(2015, 1, 1),
        datetime.date(2015, 12, 31),
        lines,
        {1: w.player.pk},
    )
    return reverse("imported-line", args=[w.club.slug, "2015", snapshot.lines.get().pk])


def album_photo(w: World, members_only: bool = False) -> tuple[str, int]:
    """An album of the club (public, or its members' only) with one photo, its copies made."""
    album = photo_services.album_create(
        w.club,
        "Album privé" if members_only else "Album",
        w.season.start,
        members_only=members_only,
    )
    [photo] = photo_services.photos_upload(album, [phone_photo(size=(60, 40))], None)
    photo_services.photo_copies_make(photo.pk)
    return album.slug, photo.pk


def photo_address(name: str, members_only: bool = False, *more: str) -> Address:
    def address(w: World) -> str:
        album, photo = album_photo(w, members_only)
        return reverse(name, args=[w.club.slug, album, photo, *more])

    return address


def asked_photo(w: World) -> int:
    """A photo a member asked to be taken down: its admins answer."""
    album, photo = album_photo(w)
    photo_services.photo_takedown_ask(w.club.albums.get().photos.get(), w.users["member"])
    return photo


def join_request(w: World) -> int:
    """Somebody asked to join the world's club (listed): its admins answer, nobody else."""
    return JoinRequest.objects.create(club=w.club, name="Paul Renard", email="paul@ex.org").pk


def site_page(w: World, members_only: bool = False) -> SitePage:
    """A page of the world's club (clubsite/pages.py), with two versions."""
    page = site_pages.page_create(
        w.club, {"title": "Règlement interne", "members_only": members_only}, None
    )
    return site_pages.page_update(page, {"text": "Silence."}, None)


def site_page_url(w: World, name: str, *args: Any) -> str:
    return reverse(name, args=[w.club.slug, site_page(w).pk, *args])


def news_post(w: World) -> int:
    """A published post of the world's club."""
    return post_of(w.club).pk


# name → (method, address in the world, expected status per role)
Address = Callable[[World], str]
MATRIX: dict[str, tuple[str, Address, dict[str, int]]] = {
    "home": ("get", lambda w: reverse("home"), EVERYBODY),
    "privacy": ("get", lambda w: reverse("privacy"), EVERYBODY),
    # A club's sign-up (club/views/signup.py): anybody starts one (a logged-in account with
    # its own login); the steps are the secretary's own sign-up's, none here.
    "signup-start": ("get", lambda w: reverse("signup-start"), EVERYBODY),
    "signup-sent": ("get", lambda w: reverse("signup-sent"), EVERYBODY),
    "signup-confirm": ("get", lambda w: reverse("signup-confirm", args=["nul"]), NOT_FOUND),
    "signup-club": ("get", lambda w: reverse("signup-club"), statuses(302, 302, 302, 302, 302)),
    "signup-season": (
        "get",
        lambda w: reverse("signup-season"),
        statuses(302, 302, 302, 302, 302),
    ),
    "signup-review": (
        "post",
        lambda w: reverse("signup-review"),
        statuses(302, 302, 302, 302, 302),
    ),
    # Asking to join a listed club: anybody; its admins answer (club/views/club_start.py).
    "join-request": ("get", lambda w: reverse("join-request", args=[w.club.slug]), EVERYBODY),
    "join-requests": ("get", lambda w: reverse("join-requests", args=[w.club.slug]), ADMINS_PAGE),
    "join-request-decide": (
        "post",
        lambda w: reverse("join-request-decide", args=[w.club.slug, join_request(w), "refuser"]),
        ADMINS_ACTION,
    ),
    # The club did not sign up: its admin is told it has no checklist.
    "checklist-confirm": (
        "post",
        lambda w: reverse("checklist-confirm", args=[w.club.slug, "colours"]),
        ADMINS_ACTION,
    ),
    "club-detail": ("get", lambda w: reverse("club-detail", args=[w.club.slug]), EVERYBODY),
    # A club's albums (clubsite/views/photos.py): public ones for all, members-only ones send a
    # visitor to log in and tell another club nothing; the take-down is its members' request.
    "photo-albums": ("get", lambda w: reverse("photo-albums", args=[w.club.slug]), EVERYBODY),
    "photo-album": (
        "get",
        lambda w: reverse("photo-album", args=[w.club.slug, album_photo(w, True)[0]]),
        statuses(302, 200, 200, 200, 404),
    ),
    "photo": ("get", photo_address("photo"), EVERYBODY),
    "photo-file": (
        "get",
        photo_address("photo-file", True, "thumb"),
        statuses(302, 200, 200, 200, 404),
    ),
    "photo-takedown": ("post", photo_address("photo-takedown"), statuses(302, 302, 302, 302, 404)),
    # Their management (clubsite/views/photo_admin.py): the club's admins only.
    "photo-admin": ("get", lambda w: reverse("photo-admin", args=[w.club.slug]), ADMINS_PAGE),
    "photo-album-add": (
        "get",
        lambda w: reverse("photo-album-add", args=[w.club.slug]),
        ADMINS_PAGE,
    ),
    "photo-album-edit": (
        "get",
        lambda w: reverse("photo-album-edit", args=[w.club.slug, album_photo(w)[0]]),
        ADMINS_PAGE,
    ),
    # Nothing sent: refused in words on the album's page (400).
    "photo-upload": (
        "post",
        lambda w: reverse("photo-upload", args=[w.club.slug, album_photo(w)[0]]),
        statuses(302, 403, 403, 400, 404),
    ),
    "photo-album-delete": (
        "post",
        lambda w: reverse("photo-album-delete", args=[w.club.slug, album_photo(w)[0]]),
        ADMINS_ACTION,
    ),
    "photo-delete": (
        "post",
        lambda w: reverse("photo-delete", args=[w.club.slug, album_photo(w)[1]]),
        ADMINS_ACTION,
    ),
    "photo-takedown-decide": (
        "post",
        lambda w: reverse("photo-takedown-decide", args=[w.club.slug, asked_photo(w), "garder"]),
        ADMINS_ACTION,
    ),
    "ranking": ("get", lambda w: reverse("ranking", args=[w.club.slug]), EVERYBODY),
    "ranking-archive": ("get", lambda w: reverse("ranking-archive", args=[w.club.slug]), EVERYBODY),
    # The club's palmarès: what it published, public (clubsite/views/palmares.py).
    "palmares": ("get", lambda w: reverse("palmares", args=[w.club.slug]), EVERYBODY),
    # The season has no published ranking yet: only its club admins see the provisional one.
    "ranking-season": (
        "get",
        lambda w: reverse("ranking-season", args=[w.club.slug, w.season.slug]),
        statuses(404, 404, 404, 200, 404),
    ),
    "ranking-export": (
        "get",
        lambda w: reverse("ranking-export", args=[w.club.slug, w.season.slug, "csv"]),
        NOT_FOUND,
    ),
    "ranking-publish": (
        "post",
        lambda w: reverse("ranking-publish", args=[w.club.slug, w.season.slug]),
        ADMINS_ACTION,
    ),
    "player": ("get", lambda w: reverse("player", args=[w.club.slug, w.player.pk]), EVERYBODY),
    "player-statistics": (
        "get",
        lambda w: reverse("player-statistics", args=[w.club.slug, w.player.pk]),
        EVERYBODY,
    ),
    "ratings": ("get", lambda w: reverse("ratings", args=[w.club.slug]), EVERYBODY),
    "club-statistics": ("get", lambda w: reverse("club-statistics", args=[w.club.slug]), EVERYBODY),
    # A night's expected and actual results: with its sheets (its scorers until published).
    "night-ratings": ("get", lambda w: w.night_url("night-ratings"), SCORERS_PAGE),
    "members": (
        "get",
        lambda w: reverse("members", args=[w.club.slug]),
        statuses(302, 403, 403, 200, 404),
    ),
    "invite": ("post", lambda w: reverse("invite", args=[w.club.slug, w.player.pk]), ADMINS_ACTION),
    "member-unlock": (
        "post",
        lambda w: reverse("member-unlock", args=[w.club.slug, w.player.pk]),
        ADMINS_ACTION,
    ),
    # No claim waits: even the club admin finds none.
    "claim-approve": (
        "post",
        lambda w: reverse("claim-approve", args=[w.club.slug, 999]),
        statuses(302, 403, 403, 404, 404),
    ),
    # The club admin's area: his club's only (403 for its members, 404 for anybody else).
    "club-admin": ("get", lambda w: reverse("club-admin", args=[w.club.slug]), ADMINS_PAGE),
    # A federation's invitation: the club's admins answer it (the federation's admin does not).
    "club-federation-answer": (
        "post",
        lambda w: reverse(
            "club-federation-answer", args=[w.club.slug, federation_question(w), "refuser"]
        ),
        ADMINS_ACTION,
    ),
    "member-add": ("post", lambda w: reverse("member-add", args=[w.club.slug]), ADMINS_ACTION),
    "member-edit": (
        "get",
        lambda w: reverse("member-edit", args=[w.club.slug, w.player.pk]),
        ADMINS_PAGE,
    ),
    # Two records of one person merged (club/views/merges.py): the club admin's area.
    "member-merge": (
        "get",
        lambda w: reverse("member-merge", args=[w.club.slug, w.player.pk]),
        ADMINS_PAGE,
    ),
    "member-merge-propose": (
        "get",
        lambda w: reverse(
            "member-merge-propose",
            args=[w.club.slug, w.player.pk, w.users["other_club_admin"].player.pk],
        ),
        ADMINS_PAGE,
    ),
    "club-merges": ("get", lambda w: reverse("club-merges", args=[w.club.slug]), ADMINS_PAGE),
    "club-merge-decide": (
        "post",
        lambda w: reverse("club-merge-decide", args=[w.club.slug, proposed_merge(w), "refuser"]),
        ADMINS_ACTION,
    ),
    # The member decides the merges of his own record only.
    "my-merge-decide": (
        "post",
        lambda w: reverse("my-merge-decide", args=[proposed_merge(w), "refuser"]),
        statuses(302, 302, 404, 404, 404),
    ),
    "member-role": (
        "post",
        lambda w: reverse("member-role", args=[w.club.slug, w.player.pk]),
        ADMINS_ACTION,
    ),
    # A POST without `confirm` asks first and ends nothing.
    "member-end": (
        "post",
        lambda w: reverse("member-end", args=[w.club.slug, w.player.pk]),
        ADMINS_PAGE,
    ),
    "member-resume": (
        "post",
        lambda w: reverse("member-resume", args=[w.club.slug, w.player.pk]),
        ADMINS_ACTION,
    ),
    "member-from-guest": (
        "post",
        lambda w: reverse("member-from-guest", args=[w.club.slug, w.player.pk]),
        ADMINS_ACTION,
    ),
    "seasons": ("get", lambda w: reverse("seasons", args=[w.club.slug]), ADMINS_PAGE),
    "season-edit": (
        "get",
        lambda w: reverse("season-edit", args=[w.club.slug, w.season.slug]),
        ADMINS_PAGE,
    ),
    # An imported ranking corrected line by line: its club admins only.
    "imported-lines": (
        "get",
        lambda w: reverse("imported-lines", args=[w.club.slug, w.season.slug]),
        ADMINS_PAGE,
    ),
    "imported-line": ("get", lambda w: imported_line_url(w), ADMINS_PAGE),
    # A past ranking imported: the table, then its columns and its names (sent back to the
    # table while nothing is read).
    "ranking-import": ("get", lambda w: reverse("ranking-import", args=[w.club.slug]), ADMINS_PAGE),
    "ranking-import-columns": (
        "get",
        lambda w: reverse("ranking-import-columns", args=[w.club.slug]),
        statuses(302, 403, 403, 302, 404),
    ),
    "ranking-import-names": (
        "get",
        lambda w: reverse("ranking-import-names", args=[w.club.slug]),
        statuses(302, 403, 403, 302, 404),
    ),
    # Members from a spreadsheet: the table, then its columns and its lines (sent back to the
    # table while nothing is read).
    "member-import": ("get", lambda w: reverse("member-import", args=[w.club.slug]), ADMINS_PAGE),
    "member-import-columns": (
        "get",
        lambda w: reverse("member-import-columns", args=[w.club.slug]),
        statuses(302, 403, 403, 302, 404),
    ),
    "member-import-review": (
        "get",
        lambda w: reverse("member-import-review", args=[w.club.slug]),
        statuses(302, 403, 403, 302, 404),
    ),
    # Once stored: the lines left out, and their table (to the members' list when none).
    "member-import-done": (
        "get",
        lambda w: reverse("member-import-done", args=[w.club.slug]),
        statuses(302, 403, 403, 302, 404),
    ),
    "member-import-left": (
        "get",
        lambda w: reverse("member-import-left", args=[w.club.slug]),
        statuses(302, 403, 403, 302, 404),
    ),
    # The club leaves with its data: its archive, then its closing (the name typed).
    "club-archive": ("get", lambda w: reverse("club-archive", args=[w.club.slug]), ADMINS_PAGE),
    "club-close": ("get", lambda w: reverse("club-close", args=[w.club.slug]), ADMINS_PAGE),
    "club-settings": ("get", lambda w: reverse("club-settings", args=[w.club.slug]), ADMINS_PAGE),
    # The room screen's colours: as public as the club's name.
    "club-colours": ("get", lambda w: reverse("club-colours", args=[w.club.slug]), EVERYBODY),
    "point-tables": ("get", lambda w: reverse("point-tables", args=[w.club.slug]), ADMINS_PAGE),
    "point-table": (
        "get",
        lambda w: reverse("point-table", args=[w.club.slug, "rcwhist"]),
        ADMINS_PAGE,
    ),
    "point-table-compare": (
        "get",
        lambda w: reverse("point-table-compare", args=[w.club.slug, "rcwhist"]),
        ADMINS_PAGE,
    ),
    # The club's own pages (clubsite/views/page_admin.py): its admins write them.
    "site-pages": ("get", lambda w: reverse("site-pages", args=[w.club.slug]), ADMINS_PAGE),
    "site-page-add": ("get", lambda w: reverse("site-page-add", args=[w.club.slug]), ADMINS_PAGE),
    "site-page-edit": ("get", lambda w: site_page_url(w, "site-page-edit"), ADMINS_PAGE),
    "site-page-delete": ("get", lambda w: site_page_url(w, "site-page-delete"), ADMINS_PAGE),
    "site-page-history": ("get", lambda w: site_page_url(w, "site-page-history"), ADMINS_PAGE),
    "site-page-restore": (
        "post",
        lambda w: site_page_url(w, "site-page-restore", 1),
        ADMINS_ACTION,
    ),
    # A members-only page (clubsite/views/pages.py): a visitor is asked to log in, a login of
    # no player of the club learns nothing of it; a public page is everybody's.
    "site-page": (
        "get",
        lambda w: reverse("site-page", args=[w.club.slug, site_page(w, members_only=True).slug]),
        statuses(302, 200, 200, 200, 404),
    ),
    "point-table-page": (
        "get",
        lambda w: reverse("point-table-page", args=[w.club.slug]),
        EVERYBODY,
    ),
    "games:tournament-create": (
        "get",
        lambda w: reverse("games:tournament-create", args=[w.club.slug]),
        SCORERS_FORM,
    ),
    # A member sees his own view of a running night: the room screen and his tables.
    "games:tournament": (
        "get",
        lambda w: w.night_url("games:tournament"),
        statuses(404, 200, 200, 200, 404),
    ),
    "games:presence": ("get", lambda w: w.night_url("games:presence"), SCORERS_FORM),
    "games:player-add": ("post", lambda w: w.night_url("games:player-add"), SCORERS_ACTION),
    "games:presence-search": (
        "get",
        lambda w: w.night_url("games:presence-search") + "?q=a",
        SCORERS_FORM,
    ),
    "games:draw": ("post", lambda w: w.night_url("games:draw", round=2), SCORERS_ACTION),
    "games:seating": ("get", lambda w: w.night_url("games:seating", round=1), SCORERS_PAGE),
    "games:paper-sheets": (
        "get",
        lambda w: w.night_url("games:paper-sheets", round=1),
        SCORERS_PAGE,
    ),
    "games:blank-sheets": ("get", lambda w: w.night_url("games:blank-sheets"), SCORERS_PAGE),
    "games:sheet-entry": (
        "get",
        lambda w: w.night_url("games:sheet-entry", poule_pk=w.poule.pk),
        SCORERS_PAGE,
    ),
    "games:sheet": (
        "get",
        lambda w: w.night_url("games:sheet", poule_pk=w.poule.pk),
        SCORERS_PAGE,
    ),
    # Undo the last deal: the scorer's one tap (sent here without a deal: "nothing to undo").
    "games:sheet-undo": (
        "post",
        lambda w: w.night_url("games:sheet-undo", poule_pk=w.poule.pk),
        SCORERS_ACTION,
    ),
    "games:deal-edit": (
        "get",
        lambda w: w.night_url("games:deal-edit", deal_pk=w.deal.pk),
        SCORERS_FORM,
    ),
    "games:deal-delete": (
        "post",
        lambda w: w.night_url("games:deal-delete", deal_pk=w.deal.pk),
        SCORERS_ACTION,
    ),
    # The room screen is the club's while the night runs.
    "games:room": ("get", lambda w: w.night_url("games:room"), statuses(404, 200, 200, 200, 404)),
    "games:results": ("get", lambda w: w.night_url("games:results"), SCORERS_PAGE),
    "games:results-export": (
        "get",
        lambda w: w.night_url("games:results-export", fmt="csv"),
        SCORERS_PAGE,
    ),
    "games:deals-export": (
        "get",
        lambda w: w.night_url("games:deals-export", fmt="csv"),
        SCORERS_PAGE,
    ),
    "games:tournament-file": ("get", lambda w: w.night_url("games:tournament-file"), SCORERS_PAGE),
    # A POST without `confirm` answers with the confirmation step and closes nothing.
    "games:close": ("post", lambda w: w.night_url("games:close"), SCORERS_FORM),
    "games:publish": ("post", lambda w: w.night_url("games:publish"), ADMINS_ACTION),
    "games:reopen": ("post", lambda w: w.night_url("games:reopen"), ADMINS_ACTION),
    "games:unpublish": ("post", lambda w: w.night_url("games:unpublish"), ADMINS_ACTION),
    # The club's calendar: public; a member answers for himself; its admin plans and reads
    # the names; the scorers open the night at the door.
    "games:calendar": ("get", lambda w: reverse("games:calendar", args=[w.club.slug]), EVERYBODY),
    "games:calendar-feed": (
        "get",
        lambda w: reverse("games:calendar-feed", args=[w.club.slug]),
        EVERYBODY,
    ),
    "games:calendar-manage": (
        "get",
        lambda w: reverse("games:calendar-manage", args=[w.club.slug]),
        ADMINS_PAGE,
    ),
    "games:calendar-answer": (
        "post",
        lambda w: w.planned_url("games:calendar-answer"),
        statuses(302, 302, 302, 302, 404),
    ),
    "games:calendar-replies": (
        "get",
        lambda w: w.planned_url("games:calendar-replies"),
        ADMINS_PAGE,
    ),
    "games:calendar-cancel": (
        "post",
        lambda w: w.planned_url("games:calendar-cancel"),
        ADMINS_ACTION,
    ),
    "games:calendar-change": (
        "get",
        lambda w: w.planned_url("games:calendar-change"),
        ADMINS_PAGE,
    ),
    "games:calendar-delete": (
        "post",
        lambda w: w.planned_url("games:calendar-delete"),
        ADMINS_ACTION,
    ),
    # Without a member chosen: the replies page again, with the refusal (400).
    "games:calendar-record": (
        "post",
        lambda w: w.planned_url("games:calendar-record"),
        statuses(302, 403, 403, 400, 404),
    ),
    "games:calendar-remind": (
        "post",
        lambda w: w.planned_url("games:calendar-remind"),
        ADMINS_ACTION,
    ),
    # A week ahead: a POST without `confirm` answers with the confirmation step.
    "games:calendar-open": (
        "post",
        lambda w: w.planned_url("games:calendar-open"),
        statuses(302, 403, 200, 200, 404),
    ),
    # The e-mail's signed link is the access (a wrong one is a 404: tests/games/test_calendar.py).
    "games:calendar-reply": (
        "get",
        lambda w: reverse(
            "games:calendar-reply",
            args=[w.club.slug, calendar.reply_token(w.planned, w.player)],
        ),
        EVERYBODY,
    ),
    "my-calendar": ("get", lambda w: reverse("my-calendar"), SIGNED_IN),
    "my-calendar-renew": (
        "post",
        lambda w: reverse("my-calendar-renew"),
        statuses(302, 302, 302, 302, 302),
    ),
    "member-feed": ("get", lambda w: reverse("member-feed", args=["pas-une-cle"]), NOT_FOUND),
    # The one way out of every bulk e-mail: the signed link is the access (a wrong one, 404 in
    # words: tests/front/views/test_unsubscribe.py).
    "unsubscribe": ("get", lambda w: reverse("unsubscribe", args=["pas-un-lien"]), NOT_FOUND),
    # The club's news (clubsite/views/news.py): public once published; a member's e-mail choice.
    "news": ("get", lambda w: reverse("news", args=[w.club.slug]), EVERYBODY),
    "news-post": (
        "get",
        lambda w: reverse("news-post", args=[w.club.slug, news_post(w)]),
        EVERYBODY,
    ),
    "news-feed": ("get", lambda w: reverse("news-feed", args=[w.club.slug]), EVERYBODY),
    "news-subscribe": (
        "post",
        lambda w: reverse("news-subscribe", args=[w.club.slug]),
        statuses(302, 302, 302, 302, 404),
    ),
    # Its admins' (clubsite/views/news_admin.py).
    "news-manage": ("get", lambda w: reverse("news-manage", args=[w.club.slug]), ADMINS_PAGE),
    "news-new": ("get", lambda w: reverse("news-new", args=[w.club.slug]), ADMINS_PAGE),
    "news-edit": (
        "get",
        lambda w: reverse("news-edit", args=[w.club.slug, news_post(w)]),
        ADMINS_PAGE,
    ),
    "news-publish": (
        "post",
        lambda w: reverse("news-publish", args=[w.club.slug, news_post(w)]),
        ADMINS_ACTION,
    ),
    "news-unpublish": (
        "post",
        lambda w: reverse("news-unpublish", args=[w.club.slug, news_post(w)]),
        ADMINS_ACTION,
    ),
    "news-delete": (
        "get",
        lambda w: reverse("news-delete", args=[w.club.slug, news_post(w)]),
        ADMINS_PAGE,
    ),
    # Anybody writes to a club (clubsite/views/contact.py).
    "contact": ("get", lambda w: reverse("contact", args=[w.club.slug]), EVERYBODY),
    "calendar-reminders-off": (
        "get",
        lambda w: reverse("calendar-reminders-off", args=["pas-un-lien"]),
        NOT_FOUND,
    ),
    "invitation-accept": (
        "get",
        lambda w: reverse("invitation-accept", args=["pas-un-lien"]),
        NOT_FOUND,
    ),
    "claim-confirm": ("get", lambda w: reverse("claim-confirm", args=["pas-un-lien"]), NOT_FOUND),
    "email-change-confirm": (
        "get",
        lambda w: reverse("email-change-confirm", args=["pas-un-lien"]),
        NOT_FOUND,
    ),
    "profile": ("get", lambda w: reverse("profile"), SIGNED_IN),
    "my-results": ("get", lambda w: reverse("my-results"), SIGNED_IN),
    "my-data": ("get", lambda w: reverse("my-data"), SIGNED_IN),
    "login": ("get", lambda w: reverse("login"), EVERYBODY),
    "logout": ("post", lambda w: reverse("logout"), statuses(302, 302, 302, 302, 302)),
    "password_change": ("get", lambda w: reverse("password_change"), SIGNED_IN),
    "password_change_done": ("get", lambda w: reverse("password_change_done"), SIGNED_IN),
    "password_reset": ("get", lambda w: reverse("password_reset"), EVERYBODY),
    "password_reset_done": ("get", lambda w: reverse("password_reset_done"), EVERYBODY),
    # A link that is no link: the page says it no longer works.
    "password_reset_confirm": (
        "get",
        lambda w: reverse("password_reset_confirm", args=["MQ", "pas-un-jeton"]),
        EVERYBODY,
    ),
    "password_reset_complete": ("get", lambda w: reverse("password_reset_complete"), EVERYBODY),
    "healthz": ("get", lambda w: reverse("healthz"), EVERYBODY),
    # How the site is found: the crawlers' rules and every public page (front/views/found.py).
    "robots": ("get", lambda w: reverse("robots"), EVERYBODY),
    "sitemap": ("get", lambda w: reverse("sitemap"), EVERYBODY),
    # The guide « Aide »: public, as the pages it explains to newcomers.
    "guide": ("get", lambda w: reverse("guide"), EVERYBODY),
    "guide-page": ("get", lambda w: reverse("guide-page", args=["soiree"]), EVERYBODY),
    # The installable web app: the same for everybody (the worker keeps sheets per viewer).
    "service-worker": ("get", lambda w: reverse("service-worker"), EVERYBODY),
    "manifest": ("get", lambda w: reverse("manifest"), EVERYBODY),
    "favicon": ("get", lambda w: reverse("favicon"), statuses(301, 301, 301, 301, 301)),
    "offline": ("get", lambda w: reverse("offline"), EVERYBODY),
    # The room screen's private link: the key is the access (a wrong one is a 404, tested in
    # tests/e2e/test_room_screen.py); making or renewing it is the club admin's.
    "room-by-key": (
        "get",
        lambda w: reverse(
            "room-by-key", args=[w.club.slug, club_services.room_key_renew(w.club).room_key]
        ),
        EVERYBODY,
    ),
    "room-link": ("get", lambda w: reverse("room-link", args=[w.club.slug]), ADMINS_PAGE),
    # An upload that is not there: the same answer for everybody.
    "media": ("get", lambda w: reverse("media", args=["players/absent.jpg"]), NOT_FOUND),
    "set_language": ("post", lambda w: reverse("set_language"), statuses(302, 302, 302, 302, 302)),
    # A member's API tokens: his own only (another's, or none, is not found).
    "api-tokens": ("get", lambda w: reverse("api-tokens"), SIGNED_IN),
    "api-token-revoke": (
        "post",
        lambda w: reverse("api-token-revoke", args=[999]),
        statuses(302, 404, 404, 404, 404),
    ),
    # The JSON API: public where the site is public, the club's running night its scorers'.
    "api:clubs": ("get", lambda w: reverse("api:clubs"), EVERYBODY),
    "api:club": ("get", lambda w: reverse("api:club", args=[w.club.slug]), EVERYBODY),
    "api:seasons": ("get", lambda w: reverse("api:seasons", args=[w.club.slug]), EVERYBODY),
    # Not published yet: nobody reads it (the provisional one is ?provisional=true, admins).
    "api:ranking": (
        "get",
        lambda w: reverse("api:ranking", args=[w.club.slug, w.season.slug]),
        NOT_FOUND,
    ),
    "api:players": ("get", lambda w: reverse("api:players", args=[w.club.slug]), EVERYBODY),
    "api:ratings": ("get", lambda w: reverse("api:ratings", args=[w.club.slug]), EVERYBODY),
    # A member who has played no published night: his club knows him, the public does not.
    "api:player": (
        "get",
        lambda w: reverse("api:player", args=[w.club.slug, w.player.pk]),
        statuses(404, 200, 200, 200, 404),
    ),
    # As the player: the public and other clubs learn only of players the club published.
    "api:player-statistics": (
        "get",
        lambda w: reverse("api:player-statistics", args=[w.club.slug, w.player.pk]),
        statuses(404, 200, 200, 200, 404),
    ),
    # Everybody lists the published nights; the scorers see the running one too.
    "api:nights": ("get", lambda w: reverse("api:nights", args=[w.club.slug]), EVERYBODY),
    "api:night": ("get", lambda w: w.night_url("api:night"), API_SCORERS_READ),
    "api:night-export": ("get", lambda w: w.night_url("api:night-export"), API_SCORERS_READ),
    # A club admin's: an import adds members and may open a season.
    "api:night-import": (
        "post",
        lambda w: reverse("api:night-import", args=[w.club.slug]),
        statuses(401, 403, 403, 400, 404),
    ),
    # Unfinished tables without unfinished_ok: refused, listed.
    "api:night-close": ("post", lambda w: w.night_url("api:night-close"), API_SCORERS_POST),
    "api:round-draw": (
        "post",
        lambda w: w.night_url("api:round-draw", round=2),
        statuses(401, 403, 201, 201, 404),
    ),
    "api:deal-record": (
        "post",
        lambda w: w.night_url("api:deal-record", poule_pk=w.poule.pk),
        API_SCORERS_POST,
    ),
    # With the version read (without it, 428: tests/api/test_urls.py).
    "api:deal": (
        "delete",
        lambda w: w.night_url("api:deal", deal_pk=w.deal.pk)
        + "?"
        + urlencode({"version": scoring_services.deal_version(w.deal)}),
        statuses(401, 403, 204, 204, 404),
    ),
    "api:calendar": ("get", lambda w: reverse("api:calendar", args=[w.club.slug]), EVERYBODY),
    "api:calendar-reply": (
        "get",
        lambda w: w.planned_url("api:calendar-reply"),
        statuses(401, 200, 200, 200, 404),
    ),
    "api:calendar-replies": (
        "get",
        lambda w: w.planned_url("api:calendar-replies"),
        statuses(401, 403, 403, 200, 404),
    ),
    "api:calendar-link-reply": (
        "get",
        lambda w: reverse("api:calendar-link-reply", args=["pas-un-lien"]),
        NOT_FOUND,
    ),
    "api:federations": ("get", lambda w: reverse("api:federations"), EVERYBODY),
    "api:federation": (
        "get",
        lambda w: reverse("api:federation", args=api_federation_season(w)[:1]),
        EVERYBODY,
    ),
    "api:federation-ranking": (
        "get",
        lambda w: reverse("api:federation-ranking", args=api_federation_season(w)),
        EVERYBODY,
    ),
    "api:federation-nights": (
        "get",
        lambda w: reverse("api:federation-nights", args=api_federation_season(w)),
        EVERYBODY,
    ),
    "api:me": ("get", lambda w: reverse("api:me"), API_SIGNED_IN),
    "api:my-results": ("get", lambda w: reverse("api:my-results"), API_SIGNED_IN),
    "api:my-data": ("get", lambda w: reverse("api:my-data"), API_SIGNED_IN),
    # A federation's public pages: everybody's (club/views/federations.py).
    "federation": ("get", lambda w: reverse("federation", args=[public_federation(w)]), EVERYBODY),
    "federation-archive": (
        "get",
        lambda w: reverse("federation-archive", args=[public_federation(w)]),
        EVERYBODY,
    ),
    "federation-ranking": (
        "get",
        lambda w: reverse("federation-ranking", args=[public_federation(w), "2024"]),
        EVERYBODY,
    ),
    "api:schema": ("get", lambda w: reverse("api:schema"), EVERYBODY),
    "api:docs": ("get", lambda w: reverse("api:docs"), EVERYBODY),
    # A federation's management (club/views/federation_admin.py): its administrators only.
    "federation-admin": (
        "get",
        lambda w: w.federation_url("federation-admin"),
        FEDERATION_ADMINS_PAGE,
    ),
    # Without a club chosen: refused with a message.
    "federation-club-invite": (
        "post",
        lambda w: w.federation_url("federation-club-invite"),
        FEDERATION_ADMINS_ACTION,
    ),
    "federation-invitation-withdraw": (
        "post",
        lambda w: w.federation_url("federation-invitation-withdraw", federation_invitation(w)),
        FEDERATION_ADMINS_ACTION,
    ),
    "federation-club-remove": (
        "post",
        lambda w: w.federation_url("federation-club-remove", w.neighbour.pk),
        FEDERATION_ADMINS_ACTION,
    ),
    # Without a player chosen: refused with a message.
    "federation-admin-add": (
        "post",
        lambda w: w.federation_url("federation-admin-add"),
        FEDERATION_ADMINS_ACTION,
    ),
    # Its only administrator: refused with a message.
    "federation-admin-remove": (
        "post",
        lambda w: w.federation_url(
            "federation-admin-remove", w.users["federation_admin"].player.pk
        ),
        FEDERATION_ADMINS_ACTION,
    ),
    "federation-season-add": (
        "get",
        lambda w: w.federation_url("federation-season-add"),
        FEDERATION_ADMINS_PAGE,
    ),
    "federation-season-edit": (
        "get",
        lambda w: w.federation_url("federation-season-edit", w.federation_season.slug),
        FEDERATION_ADMINS_PAGE,
    ),
}
# Django's admin is the site operator's: every club role is sent to its login page.
ADMIN_STATUSES = statuses(302, 302, 302, 302, 302)
ADMIN_SAMPLE_KWARGS = {"app_label": "games", "object_id": "1", "content_type_id": "1"}


def url_names(patterns: list[Any], namespace: str = "") -> list[tuple[str, Any]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            found += url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            found.append((namespace + pattern.name, pattern))
    return found


SITE_URLS = sorted({name for name, _p in url_names(get_resolver().url_patterns)})


def admin_address(name: str, pattern: URLPattern) -> str:
    kwargs = {key: ADMIN_SAMPLE_KWARGS.get(key, "1") for key in pattern.pattern.regex.groupindex}
    return reverse(name, kwargs=kwargs)


def test_every_address_of_the_site_has_an_entry():
    missing = [n for n in SITE_URLS if n not in MATRIX and not n.startswith("admin:")]
    assert missing == [], "decide who may use each new address: add it to MATRIX"


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_each_role_gets_what_the_matrix_says(client, request, name):
    world = World(request)
    method, address, expected = MATRIX[name]
    path = address(world)
    # The JSON API reads JSON bodies only (an empty one here).
    body = {"content_type": "application/json"} if name.startswith("api:") else {}
    got = {}
    for role in ROLES:
        client.logout()
        if world.users[role] is not None:
            client.force_login(world.users[role])
        with transaction.atomic():
            got[role] = getattr(client, method)(path, **body).status_code
            transaction.set_rollback(True)
    assert got == expected, path


def test_no_club_role_gets_into_djangos_admin(client, request):
    world = World(request)
    # Its own login page excepted, which says a club role is no staff account.
    patterns = [
        (n, p)
        for n, p in url_names(get_resolver().url_patterns)
        if n.startswith("admin:") and n not in ("admin:login", "admin:logout")
    ]
    assert patterns
    for role in ROLES:
        client.logout()
        if world.users[role] is not None:
            client.force_login(world.users[role])
        for name, pattern in patterns:
            path = admin_address(name, pattern)
            response = client.get(path)
            assert response.status_code == ADMIN_STATUSES[role], (role, path)
            assert response["Location"].startswith(reverse("admin:login")), (role, path)
