"""The site's pages as the W3C Nu HTML checker reads them: no error on any of them (the style
attributes' and <style>'s CSS included, which the checker reads too).

About thirty pages — public, a member's, a club admin's, a running night's sheet and its paper
entry, the point table editor, forms sent back with their errors — are saved as files and
checked in one run of the checker (one Java start). The checker is the npm package
``vnu-jar``: ``.ci/run`` installs it under ``.cache/vnu/``; ``VNU_JAR`` may name another copy.
Without Java or the jar the test is skipped, saying which is missing."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Player
from games import calendar
from games.models import Poule, Tournament
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
JAR = ROOT / ".cache" / "vnu" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


@pytest.fixture(scope="session")
def checker() -> list[str]:
    """The command that runs the checker, or the test skipped with the reason."""
    java = shutil.which("java")
    jar = Path(os.environ.get("VNU_JAR") or JAR)
    if java is None:
        pytest.skip("no Java on this machine: the Nu HTML checker needs it")
    if not jar.is_file():
        pytest.skip(f"no Nu HTML checker at {jar}: npm install --prefix .cache/vnu vnu-jar")
    return [java, "-jar", str(jar), "--format", "json", "--stdout"]


def site_pages(request: pytest.FixtureRequest) -> dict[str, tuple[Any, str, str, dict | None]]:
    """Each page: who looks (a user or None), the method, the address and the form sent."""
    club = request.getfixturevalue("club")
    club_admin = request.getfixturevalue("club_admin")
    scorer = request.getfixturevalue("scorer")
    member = request.getfixturevalue("member")
    # The running night first: its season is the one the imported night's file names.
    running: Tournament = request.getfixturevalue("running_night")
    published: Tournament = request.getfixturevalue("imported_night")
    scoring_services.tournament_publish(published)
    scoring_services.ranking_publish(published.season)
    poule = Poule.objects.filter(tournament=running, round=1).first()
    scoring_services.deal_record(poule, SOLO)
    planned = calendar.night_plan(
        club, datetime.date.today() + datetime.timedelta(days=7), calendar.NightPlan()
    )
    player = published.standings.first().player
    token = calendar.reply_token(planned, Player.objects.filter(user=member).first())
    reply_path = reverse("games:calendar-reply", args=[club.slug, token])
    slug = club.slug

    def night(name: str, tournament: Tournament, *args: Any) -> str:
        return reverse(f"games:{name}", args=[slug, tournament.pk, *args])

    get = "get"
    return {
        # The public
        "home": (None, get, reverse("home"), None),
        "club": (None, get, reverse("club-detail", args=[slug]), None),
        "ranking": (None, get, reverse("ranking", args=[slug]), None),
        "ranking archive": (None, get, reverse("ranking-archive", args=[slug]), None),
        "results": (None, get, night("results", published), None),
        "night's cote": (None, get, reverse("night-ratings", args=[slug, published.pk]), None),
        "player": (None, get, reverse("player", args=[slug, player.pk]), None),
        "player statistics": (
            None,
            get,
            reverse("player-statistics", args=[slug, player.pk]),
            None,
        ),
        "ratings": (None, get, reverse("ratings", args=[slug]), None),
        "calendar": (None, get, reverse("games:calendar", args=[slug]), None),
        "guide": (None, get, reverse("guide"), None),
        "guide page": (None, get, reverse("guide-page", args=["soiree"]), None),
        "privacy": (None, get, reverse("privacy"), None),
        "login": (None, get, reverse("login"), None),
        "login refused": (
            None,
            "post",
            reverse("login"),
            {"username": "nobody@example.org", "password": "wrong"},
        ),
        "sign-up": (None, get, reverse("signup-start"), None),
        "not found": (None, get, "/clubs/no-such-club/", None),
        # A member
        "my results": (member, get, reverse("my-results"), None),
        "my profile": (member, get, reverse("profile"), None),
        "my calendar": (member, get, reverse("my-calendar"), None),
        "calendar reply": (None, get, reply_path, None),
        # A running night's scorer
        "night board": (scorer, get, night("tournament", running), None),
        "presence": (scorer, get, night("presence", running), None),
        "sheet": (scorer, get, night("sheet", running, poule.pk), None),
        "paper entry": (scorer, get, night("sheet-entry", running, poule.pk), None),
        "seating": (scorer, get, night("seating", running, 1), None),
        "paper sheets": (scorer, get, night("paper-sheets", running, 1), None),
        "room screen": (scorer, get, night("room", running), None),
        # The club's admin
        "club admin": (club_admin, get, reverse("club-admin", args=[slug]), None),
        "members": (club_admin, get, reverse("members", args=[slug]), None),
        "seasons": (club_admin, get, reverse("seasons", args=[slug]), None),
        "club settings": (club_admin, get, reverse("club-settings", args=[slug]), None),
        "club settings refused": (
            club_admin,
            "post",
            reverse("club-settings", args=[slug]),
            {"name": "", "colour": "rouge"},
        ),
        "point tables": (club_admin, get, reverse("point-tables", args=[slug]), None),
        "point table editor": (
            club_admin,
            get,
            reverse("point-table", args=[slug, running.point_table.name]),
            None,
        ),
        "member import": (club_admin, get, reverse("member-import", args=[slug]), None),
        "new night": (club_admin, get, reverse("games:tournament-create", args=[slug]), None),
        "new night refused": (
            club_admin,
            "post",
            reverse("games:tournament-create", args=[slug]),
            {"date": "", "rounds": "0"},
        ),
        "calendar planning": (
            club_admin,
            get,
            reverse("games:calendar-manage", args=[slug]),
            None,
        ),
        "member edited refused": (
            club_admin,
            "post",
            reverse("member-edit", args=[slug, player.pk]),
            {"display_name": "", "email": "pas-une-adresse", "phone": "abc"},
        ),
    }


def test_every_page_is_valid_html_to_the_nu_checker(checker, request, tmp_path):
    pages = site_pages(request)
    files = {}
    for name, (user, method, path, data) in pages.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        response = getattr(client, method)(path, data or {})
        assert response["Content-Type"].startswith("text/html"), (name, response.status_code)
        assert response.status_code in (200, 400, 404), (name, response.status_code)
        file = tmp_path / f"{len(files):02d}.html"
        file.write_bytes(response.content)
        files[file.name] = name

    run = subprocess.run(
        [*checker, *sorted(str(tmp_path / name) for name in files)],
        capture_output=True,
        text=True,
        check=False,
    )
    messages = json.loads(run.stdout)["messages"]
    errors = [
        f"{files[Path(m['url']).name]}: line {m.get('lastLine')}: {m['message']}"
        f" — {m.get('extract', '').strip()!r}"
        for m in messages
        if m["type"] in ("error", "non-document-error")
    ]
    assert len(files) >= 30
    assert errors == [], f"{len(errors)} errors on {len(files)} pages:\n" + "\n".join(errors)
