"""``manage.py guide_pictures``: the guide's pictures taken again, on the demo, on a 390 px
phone in each of the guide's languages, written where the guide serves them
(static/guide/<lang>/<name>.png) with the manifest of the templates they show
(``front.guide.MANIFEST``). Run it when a page the guide shows changes, then commit the
pictures: the test suite never writes them (tests/front/test_guide.py fails when one is
missing or older than its template).

Nothing of the site's own data is touched: a throw-away database is made (the test runner's
way), migrated, given the demo, and dropped at the end. The site is served on a free port of
127.0.0.1 and the browser (Debian's chromium, through Playwright) reaches it as
``http://club.example`` (its host resolver maps the name), so that no picture shows a port
or « localhost ». Each picture is squeezed to a 64-colour palette (Pillow), which keeps a
phone's screen readable at a few tens of kilobytes."""

from __future__ import annotations

import datetime
import io
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from celery import current_app as app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core import mail
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import BaseCommand, call_command
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from openpyxl import Workbook
from PIL import Image
from playwright.sync_api import sync_playwright

from club.models import Club, Player
from front.guide import GUIDE_LANGUAGES, PICTURES_FOLDER, manifest_write
from games import services as games_services
from games.models import Tournament
from games.services import point_table_for_preset
from scoring import services as scoring

HOST = "club.example"
BASE = f"http://{HOST}"
PHONE = {"width": 390, "height": 844}
LINK = re.compile(r"https?://\S+(/inscription/confirmer/[^/\s]+/)")
PASSWORD = "trefle-carreau-pique-coeur"
# The deals of the night's first table, as a scorer notes them (a table of four).
DEALS = [
    {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
    {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7},
    {"contract": "trou", "bid": 8, "declarers": ["3", "4"], "tricks": 8},
    {"contract": "petite_misere", "declarers": ["4"], "tricks": {"4": 0}},
    {"contract": "emballage", "bid": 9, "declarers": ["1", "2"], "tricks": 8},
]
CITIES = {"fr": "Ciney", "en": "Dinant", "nl": "Tienen"}


class Quiet(WSGIRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def throwaway_site() -> Iterator[int]:
    """A migrated throw-away database (a file, which the server's threads share) and the site
    served from it on a free port; its port given. Both gone at the end."""
    folder = Path(tempfile.mkdtemp(prefix="guide-pictures-"))
    test = connection.settings_dict["TEST"]
    old_name, old_test_name = connection.settings_dict["NAME"], test.get("NAME")
    if connection.vendor == "sqlite":
        test["NAME"] = str(folder / "guide.sqlite3")
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet, allow_reuse_address=False)
    server.set_app(StaticFilesHandler(WSGIHandler()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    try:
        with override_settings(
            ALLOWED_HOSTS=[HOST],
            SITE_URL=BASE,
            CLUB_SIGNUP="open",
            EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
            SESSION_COOKIE_SECURE=False,
            CSRF_COOKIE_SECURE=False,
            LANGUAGE_COOKIE_SECURE=False,
            SECURE_SSL_REDIRECT=False,
            # The demo's uploads and photos in the throw-away folder, gone with it.
            MEDIA_ROOT=folder / "media",
            STORAGES={
                "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "photos": {
                    "BACKEND": "django.core.files.storage.FileSystemStorage",
                    "OPTIONS": {"location": folder / "photos", "base_url": "/photos-not-served/"},
                },
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
            },
        ):
            thread.start()
            yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        app.conf.task_always_eager = eager
        connection.creation.destroy_test_db(old_name, verbosity=0)
        test["NAME"] = old_test_name
        shutil.rmtree(folder, ignore_errors=True)


def squeezed(png: bytes, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=64)
    image.save(path, optimize=True)


class Pictures:
    """The browser on a phone, one context per language and reader, and where it writes."""

    def __init__(self, browser: Any, language: str, folder: Path, taken: set[str]) -> None:
        self.browser, self.language, self.folder = browser, language, folder
        # The pictures taken (by name), whose templates the manifest then says are current.
        self.taken = taken

    def phone(self, user: Any = None) -> Any:
        context = self.browser.new_context(
            viewport=PHONE, locale=self.language, is_mobile=True, has_touch=True
        )
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": self.language, "url": BASE}]
        if user is not None:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session, "url": BASE})
        context.add_cookies(cookies)
        return context.new_page()

    def take(
        self,
        page: Any,
        name: str,
        top: str | None = None,
        whole: str | None = None,
        end: str | None = None,
    ) -> None:
        """The phone's screen (from the element ``top`` when the part to show is lower down,
        down to the element ``end`` when it is at the bottom), or the element ``whole``."""
        # Every picture of the page loaded first: a lazy one would show as an empty box.
        page.evaluate(
            "document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')"
        )
        for _ in range(100):  # polled from here: the site's CSP refuses the page an eval
            if page.evaluate("[...document.images].every(img => img.complete)"):
                break
            page.wait_for_timeout(100)
        if end:
            page.locator(end).first.evaluate("e => e.scrollIntoView({block: 'end'})")
        if whole:
            png = page.locator(whole).first.screenshot(animations="disabled", caret="hide")
        else:
            if top:
                # Just below the header, which stays at the top as the page scrolls.
                page.locator(top).first.evaluate(
                    "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY"
                    " - document.querySelector('.site-header').offsetHeight - 8)"
                )
            png = page.screenshot(animations="disabled", caret="hide")
        squeezed(png, self.folder / self.language / name)
        self.taken.add(name)


def demo_with_a_night() -> dict[str, Any]:
    """The demo, with tonight's night of RCWhist running: its first table scored by phone,
    its second on paper."""
    call_command("demo_club", stdout=io.StringIO())
    club = Club.objects.get(name="RCWhist La Chevalerie")
    season = club.seasons.order_by("-start").first()
    tonight = games_services.tournament_create(
        club=club,
        season=season,
        date=min(datetime.date.today(), season.end),
        game="belgian_whist",
        point_table=point_table_for_preset("rcwhist"),
        name="",
    )
    games_services.presence_set(tonight, list(Player.objects.in_club(club).order_by("pk")[:8]))
    scoring.round_draw(tonight, 1, seed=7)
    on_phone, on_paper = tonight.poules.order_by("table")
    scoring.deals_record(on_phone, DEALS)
    published = Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED).last()
    return {
        "club": club,
        "admin": get_user_model().objects.get(username="admin"),
        "tonight": tonight,
        "on_phone": on_phone,
        "on_paper": on_paper,
        "published": published,
        "player": Player.objects.in_club(club).filter(user__isnull=True).order_by("pk").first(),
    }


def members_workbook(path: Path, count: int = 40) -> Path:
    firsts = ["Anne", "Bruno", "Chloé", "Didier", "Éloïse", "François", "Gaëlle", "Hugo"]
    lasts = ["Lambert", "Dubois", "Peeters", "Janssens", "Maes", "Dupont", "Willems"]
    workbook = Workbook()
    workbook.active.append(["Prénom", "Nom", "E-mail", "Téléphone", "Initiales"])
    for n in range(count):
        first, last = firsts[n % len(firsts)], f"{lasts[n % len(lasts)]}-{n // len(lasts)}"
        email = "" if n % 5 == 4 else f"membre{n}@example.org"
        workbook.active.append([first, last, email, f"0470 00 {n:02d} 00", ""])
    workbook.save(path)
    return path


def secretary_pictures(shots: Pictures, workbook: Path) -> None:
    """A new secretary signs her club up, meets its first steps and imports its members."""
    language, page = shots.language, shots.phone()
    page.goto(f"{BASE}/")
    shots.take(page, "home.png", end=".signup-offer")
    page.goto(f"{BASE}/inscription/")
    email = f"marie.{language}@example.org"
    page.fill("#id_email", email)
    page.fill("#id_name", "Marie Lambert")
    page.click("main button.primary")
    (letter,) = [m for m in mail.outbox if m.to == [email]]
    page.goto(BASE + LINK.search(letter.body).group(1))
    page.fill("#id_new_password1", PASSWORD)
    page.fill("#id_new_password2", PASSWORD)
    page.click("main button.primary")
    page.wait_for_selector("#id_town")
    page.fill("#id_name", f"Whist Club de {CITIES[language]}")
    page.fill("#id_town", CITIES[language])
    page.select_option("#id_default_rules", "rcwhist")
    shots.take(page, "signup-club.png")
    page.click("main button.primary")
    page.click("main button.primary")  # the season as proposed
    page.click("main button.primary")  # « Créer le club »
    page.wait_for_selector(".club-start")
    shots.take(page, "signup-checklist.png", top=".club-start")
    slug = page.url.rstrip("/").rsplit("/", 1)[-1]
    page.goto(f"{BASE}/clubs/{slug}/membres/importer/")
    page.set_input_files("#id_file", str(workbook))
    page.click("main button[type=submit]")
    page.wait_for_selector("#id_first_name")
    shots.take(page, "members-import-columns.png", top="main h1")
    page.click("main button[type=submit]")
    page.wait_for_selector(".import-counts")
    shots.take(page, "members-import-review.png", top=".import-counts")
    page.context.close()


def club_pictures(shots: Pictures, demo: dict[str, Any]) -> None:
    """The demo club's pages as its president sees them."""
    at = f"{BASE}/clubs/{demo['club'].slug}"
    night = f"{at}/soirees/{demo['tonight'].pk}"
    published = demo["published"].pk
    page = shots.phone(demo["admin"])
    for name, address, top, whole in (
        ("night-new.png", f"{at}/soirees/nouvelle/", None, None),
        ("night-presence.png", f"{night}/presents/", None, None),
        ("night-tables.png", f"{night}/", ".rounds, main h2", None),
        ("sheet.png", f"{night}/poules/{demo['on_phone'].pk}/", None, None),
        ("paper-entry.png", f"{night}/poules/{demo['on_paper'].pk}/saisie/", None, "main"),
        ("results.png", f"{at}/soirees/{published}/resultats/", None, None),
        ("ranking.png", f"{at}/classement/", None, None),
        ("calendar-manage.png", f"{at}/soirees/calendrier/gestion/", None, None),
        ("calendar.png", f"{at}/soirees/calendrier/", None, None),
        ("ratings.png", f"{at}/cote/", None, None),
        ("night-ratings.png", f"{at}/soirees/{published}/cote/", ".night-cote", None),
        ("player-statistics.png", f"{at}/joueurs/{demo['player'].pk}/statistiques/", None, None),
    ):
        response = page.goto(address)
        if response is None or response.status != 200:
            raise RuntimeError(f"{address}: {response and response.status}")
        shots.take(page, name, top=top, whole=whole)
    page.context.close()


def site_pictures(shots: Pictures, demo: dict[str, Any]) -> None:
    """The demo club's own site as a visitor sees it: its home, a page, its album."""
    club = demo["club"]
    at = f"{BASE}/clubs/{club.slug}"
    album = club.albums.order_by("-date", "-pk").first()
    page = shots.phone()
    for name, address, top in (
        ("site-home.png", f"{at}/", ".club-site-menu"),
        ("site-page.png", f"{at}/le-club/", None),
        ("site-album.png", f"{at}/photos/{album.slug}/", None),
    ):
        response = page.goto(address)
        if response is None or response.status != 200:
            raise RuntimeError(f"{address}: {response and response.status}")
        shots.take(page, name, top=top)
    page.context.close()


# Each group of pictures, as ``--only`` names it.
GROUPS = ("secretary", "club", "site")


class Command(BaseCommand):
    help = (
        "Take the guide's pictures again on the demo (static/guide/<lang>/), with their manifest."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--chromium",
            default=shutil.which("chromium") or "/usr/bin/chromium",
            help="the browser to drive (Debian's chromium by default)",
        )
        parser.add_argument(
            "--only",
            choices=sorted(GROUPS),
            action="append",
            help="take only these pictures (the manifest says only their templates are new)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Playwright's sync API keeps an event loop in this thread, where Django's database
        # calls are refused unless said safe: they are, nothing else runs in this loop (the
        # browser tests say the same, tests/e2e/conftest.py).
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with throwaway_site() as port, sync_playwright() as playwright:
            demo = demo_with_a_night()
            browser = playwright.chromium.launch(
                executable_path=options["chromium"],
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    f"--host-resolver-rules=MAP {HOST} 127.0.0.1:{port}",
                ],
            )
            workbook = members_workbook(Path(tempfile.mkdtemp()) / "membres.xlsx")
            try:
                groups, taken = options["only"] or list(GROUPS), set()
                for language in GUIDE_LANGUAGES:
                    shots = Pictures(browser, language, PICTURES_FOLDER, taken)
                    if "secretary" in groups:
                        secretary_pictures(shots, workbook)
                    if "club" in groups:
                        club_pictures(shots, demo)
                    if "site" in groups:
                        site_pictures(shots, demo)
                    self.stdout.write(f"{language}: {', '.join(groups)}")
            finally:
                browser.close()
                shutil.rmtree(workbook.parent, ignore_errors=True)
        manifest_write(None if options["only"] is None else taken)
        self.stdout.write(f"Written to {PICTURES_FOLDER} with {PICTURES_FOLDER.name}/manifest.json")
