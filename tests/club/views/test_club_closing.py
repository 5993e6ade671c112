"""A club leaves with its data: its admin downloads everything as one ZIP archive (every file
readable by the tool it is meant for), then closes the club by typing its name. Its pages go
for everybody, its members are told and enter no more, its data is kept for the stated time and
then deleted by ``manage.py purge_closed_clubs``; until then the operator may reopen it."""

from __future__ import annotations

import csv
import datetime
import io
import json
import zipfile

import icalendar
import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from club.mailing.closing import club_closed_send
from club.models import Club, ClubClosing, Membership, Player
from club.services.closing import closed_clubs_purge, club_close
from games import calendar
from games.models import PlannedNight, Tournament
from scoring import services as scoring_services
from scoring.engine.night import read_night
from scoring.models import RankingSnapshot
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory

T0 = datetime.datetime(2025, 3, 1, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def whole_club(club, club_admin, running_night, imported_night):
    """A club with a closed night and a running one, its 2024 ranking published, a planned
    night on its calendar."""
    scoring_services.ranking_publish(imported_night.season)
    calendar.night_plan(
        club, timezone.localdate() + datetime.timedelta(days=9), calendar.NightPlan(place="Salle")
    )
    return club


def archive_of(client, club) -> zipfile.ZipFile:
    answer = client.get(reverse("club-archive", args=[club.slug]))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/zip"
    assert answer["Content-Disposition"].startswith(f'attachment; filename="{club.slug}-')
    return zipfile.ZipFile(io.BytesIO(b"".join(answer.streaming_content)))


def test_the_archive_holds_every_night_the_members_the_rankings_and_the_calendar(
    client, whole_club, club_admin, running_night, imported_night
):
    client.force_login(club_admin)
    archive = archive_of(client, whole_club)
    names = set(archive.namelist())
    nights = sorted(name for name in names if name.startswith("soirees/"))
    assert nights == sorted(
        [
            f"soirees/2024/2024-03-14-{imported_night.pk}-soiree-du-14-mars-2024.json",
            f"soirees/2024/2024-03-14-{running_night.pk}.json",
        ]
    )
    assert {"README.txt", "membres.csv", "calendrier.ics", "classements/2024.csv"} <= names
    # Each night reads back through the engine, as a night file.
    for name in nights:
        document = json.loads(archive.read(name))
        assert read_night(document).date == datetime.date(2024, 3, 14)
    closed = json.loads(archive.read(nights[0]))
    assert closed["format"] == "club-night-result/1" and len(closed["players"]) == 9
    # The members, one line each, with what the club knows of them.
    members = list(
        csv.reader(io.StringIO(archive.read("membres.csv").decode("utf-8-sig")), delimiter=";")
    )
    assert members[0][:6] == [
        "Nom",
        "Prénom",
        "Nom de famille",
        "E-mail",
        "Téléphone",
        "Initiales seulement",
    ]
    assert len(members) == 1 + Membership.objects.filter(club=whole_club).count()
    assert "Anne Dupont" in {row[0] for row in members}
    # The published ranking, as its own export writes it.
    ranking = archive.read("classements/2024.csv").decode("utf-8-sig").splitlines()
    assert ranking[0].startswith("Rang;Joueur;Soirées jouées")
    published = RankingSnapshot.objects.filter(season__club=whole_club).latest_published().get()
    assert len(ranking) == 1 + published.lines.count()
    # The calendar opens as iCalendar, with its planned night.
    feed = icalendar.Calendar.from_ical(archive.read("calendrier.ics"))
    assert [event.get("location") for event in feed.walk("VEVENT")] == ["Salle"]
    readme = archive.read("README.txt").decode()
    for name in ("membres.csv", "classements/<saison>.csv", "soirees/<saison>/", "calendrier.ics"):
        assert name in readme
    assert "2 soirées" in readme


@pytest.mark.parametrize("name", ["club-archive", "club-close"])
def test_only_the_clubs_admin_downloads_or_closes(client, club, member, scorer, outsider, name):
    other_admin = persona(ClubFactory(name="Cercle de Namur"), "admin-namur", "admin")
    url = reverse(name, args=[club.slug])
    for user, status in ((member, 403), (scorer, 403), (outsider, 404), (other_admin, 404)):
        client.force_login(user)
        assert client.get(url).status_code == status
        assert client.post(url, {"name": club.name}).status_code == status
    client.logout()
    assert client.get(url).status_code == 302  # to the login page
    assert not ClubClosing.objects.exists()


def test_the_club_is_closed_only_by_typing_its_name(client, club, club_admin):
    client.force_login(club_admin)
    url = reverse("club-close", args=[club.slug])
    page = client.get(url)
    assert "gardées 90 jours" in page.content.decode()
    answer = client.post(url, {"name": "RCWhist"})
    assert answer.status_code == 400
    assert answer.context["form"].errors["name"] == [
        "Tapez le nom du club tel qu'il est écrit, « RCWhist La Chevalerie », pour le fermer."
    ]
    assert not ClubClosing.objects.exists()
    # Whatever the case and the accents.
    answer = client.post(url, {"name": "rcwhist la chevalerie"})
    assert answer.status_code == 200
    assert "RCWhist La Chevalerie a fermé" in answer.content.decode()
    assert ClubClosing.objects.get().slug == "rcwhist"


def test_a_closed_clubs_pages_go_and_its_members_enter_no_more(
    client, whole_club, club_admin, member, django_capture_on_commit_callbacks
):
    member.player.email = "membre@example.org"
    member.player.save()
    with django_capture_on_commit_callbacks(execute=True):
        closing = club_close(whole_club, typed_name=whole_club.name, by=club_admin, now=T0)
    whole_club.refresh_from_db()
    assert whole_club.slug != "rcwhist"
    # The old addresses say the club closed, to the public and to its members alike.
    paths = ["/clubs/rcwhist/", "/clubs/rcwhist/classement/", "/clubs/rcwhist/soirees/calendrier/"]
    for user in (None, member, club_admin):
        if user:
            client.force_login(user)
            paths.append("/clubs/rcwhist/gestion/")
        for path in paths:
            answer = client.get(path)
            assert answer.status_code == 410, path
            assert "RCWhist La Chevalerie a fermé" in answer.content.decode()
    # Its admin has no role in it any more, even at its new address.
    assert client.get(reverse("club-admin", args=[whole_club.slug])).status_code == 404
    assert not Membership.objects.filter(club=whole_club, end=None).exists()
    assert sorted(closing.memberships) == sorted(
        Membership.objects.filter(club=whole_club).values_list("pk", flat=True)
    )
    # Gone from the home page and the API.
    assert whole_club.name not in client.get(reverse("home")).content.decode()
    listed = client.get("/api/v1/clubs/").json()
    assert whole_club.name not in json.dumps(listed)
    assert client.get("/api/v1/clubs/rcwhist/").status_code == 404
    # Its members were told, with the date its data goes.
    told = [message for message in mail.outbox if "membre@example.org" in message.to]
    assert len(told) == 1
    assert told[0].subject == "RCWhist La Chevalerie a fermé"
    assert "gardées jusqu'au 30 mai 2025" in told[0].body


def test_the_members_are_told_once_however_often_the_task_runs(club, club_admin, member):
    member.player.email = "membre@example.org"
    member.player.save()
    closing = club_close(club, typed_name=club.name, by=club_admin)
    assert club_closed_send(closing.pk) == 2  # the admin and the member have an address
    assert club_closed_send(closing.pk) == 0
    assert len(mail.outbox) == 2


def test_a_closed_club_is_deleted_once_its_time_is_up_with_the_players_it_alone_knew(
    whole_club, club_admin, member, superuser
):
    neighbour = ClubFactory(name="Whist Club de Wavre")
    anne = Player.objects.get(display_name="Anne Dupont")
    Membership.objects.create(club=neighbour, player=anne, start=datetime.date(2024, 1, 1))
    # The operator plays at the club too.
    PlayerFactory(user=superuser, club=whole_club)
    club_close(whole_club, typed_name=whole_club.name, by=club_admin, now=T0)
    assert closed_clubs_purge(now=T0 + datetime.timedelta(days=89)) == []
    assert Club.objects.filter(pk=whole_club.pk).exists()
    assert closed_clubs_purge(now=T0 + datetime.timedelta(days=90)) == ["RCWhist La Chevalerie"]
    assert not Club.objects.filter(pk=whole_club.pk).exists()
    assert not Tournament.objects.exists()
    assert not PlannedNight.objects.exists()
    assert not RankingSnapshot.objects.exists()
    assert not ClubClosing.objects.exists()
    # Anne plays at Wavre too: she stays. The others go, with their accounts; the operator's
    # account stays.
    assert list(Player.objects.exclude(user=superuser).values_list("display_name", flat=True)) == [
        "Anne Dupont"
    ]
    users = get_user_model().objects
    assert not users.filter(pk__in=[club_admin.pk, member.pk]).exists()
    assert users.filter(pk=superuser.pk).exists()


def test_the_purge_command_deletes_the_clubs_whose_time_is_up(club, club_admin):
    club_close(club, typed_name=club.name, by=club_admin)
    ClubClosing.objects.update(purge_after=timezone.now() - datetime.timedelta(minutes=1))
    out = io.StringIO()
    call_command("purge_closed_clubs", stdout=out)
    assert out.getvalue().splitlines() == [
        "deleted: RCWhist La Chevalerie",
        "1 closed club(s) deleted",
    ]
    assert not Club.objects.exists()


def test_the_operator_reopens_a_closed_club_from_djangos_admin(client, club, club_admin, superuser):
    club_close(club, typed_name=club.name, by=club_admin)
    client.force_login(superuser)
    changelist = reverse("admin:club_clubclosing_changelist")
    assert client.get(changelist).status_code == 200
    answer = client.post(
        changelist,
        {"action": "reopen", "_selected_action": [ClubClosing.objects.get().pk]},
        follow=True,
    )
    assert "RCWhist La Chevalerie est rouvert" in answer.content.decode()
    club.refresh_from_db()
    assert club.slug == "rcwhist" and not ClubClosing.objects.exists()
    admin = Membership.objects.get(club=club, player__user=club_admin)
    assert (admin.end, admin.role) == (None, Membership.Role.ADMIN)
    client.force_login(club_admin)
    assert client.get(reverse("club-admin", args=["rcwhist"])).status_code == 200


def test_a_club_is_not_reopened_at_an_address_another_club_took(
    client, club, club_admin, superuser
):
    closing = club_close(club, typed_name=club.name, by=club_admin)
    ClubFactory(name="RCWhist bis", slug="rcwhist")
    client.force_login(superuser)
    answer = client.post(
        reverse("admin:club_clubclosing_changelist"),
        {"action": "reopen", "_selected_action": [closing.pk]},
        follow=True,
    )
    assert "est prise depuis par un autre club" in answer.content.decode()
    assert ClubClosing.objects.filter(pk=closing.pk).exists()


def test_the_privacy_page_says_how_long_a_closed_clubs_data_is_kept(client, settings):
    settings.CLUB_CLOSED_KEEP_DAYS = 60
    page = client.get(reverse("privacy")).content.decode()
    assert "Ses données sont gardées 60 jours après la fermeture" in page


def test_the_archives_members_file_imports_back_into_another_club(client, whole_club, club_admin):
    # The factories may name the president like a member: a club never has two such names.
    Player.objects.filter(user=club_admin).update(display_name="Marie Président")
    client.force_login(club_admin)
    members_csv = archive_of(client, whole_club).read("membres.csv")
    elsewhere = ClubFactory(name="Whist Club de Wavre")
    wavre_admin = persona(elsewhere, "admin-wavre", Membership.Role.ADMIN)
    Player.objects.filter(user=wavre_admin).update(display_name="Paul Wavre")
    client.force_login(wavre_admin)
    upload = SimpleUploadedFile("membres.csv", members_csv)
    assert (
        client.post(reverse("member-import", args=[elsewhere.slug]), {"file": upload}).status_code
        == 302
    )
    columns = client.get(reverse("member-import-columns", args=[elsewhere.slug])).context["form"]
    assert {
        key: columns.initial.get(key) for key in ("name", "first_name", "last_name", "email")
    } == {
        "name": 0,
        "first_name": 1,
        "last_name": 2,
        "email": 3,
    }
    answer = client.post(
        reverse("member-import-columns", args=[elsewhere.slug]),
        {
            "header": "on",
            "name": 0,
            "first_name": 1,
            "last_name": 2,
            "email": 3,
            "phone": 4,
            "initials": 5,
        },
    )
    assert answer.status_code == 302
    review = reverse("member-import-review", args=[elsewhere.slug])
    answer = client.post(review)
    assert answer.status_code == 302, answer.context["problems"]
    lines = members_csv.decode("utf-8-sig").splitlines()[1:]
    assert Membership.objects.filter(club=elsewhere).count() == 1 + len(lines)


def test_the_archives_members_file_is_guarded_and_still_imports_back_as_it_was(
    client, whole_club, club_admin
):
    """A name that would run as a formula (=HYPERLINK…) is written behind a quote, as every
    phone number that starts with "+"; read back, each is what the club had, not refused."""
    hostile = '=HYPERLINK("http://example.org","clic")'
    Player.objects.filter(user=club_admin).update(display_name=hostile, phone="+32 475 12 34 56")
    client.force_login(club_admin)
    members_csv = archive_of(client, whole_club).read("membres.csv")
    rows = list(csv.reader(io.StringIO(members_csv.decode("utf-8-sig")), delimiter=";"))
    admin_row = next(row for row in rows if "HYPERLINK" in row[0])
    assert admin_row[0] == "'" + hostile and admin_row[4] == "'+32 475 12 34 56"
    elsewhere = ClubFactory(name="Whist Club de Wavre")
    wavre_admin = persona(elsewhere, "admin-wavre", Membership.Role.ADMIN)
    client.force_login(wavre_admin)
    upload = SimpleUploadedFile("membres.csv", members_csv)
    client.post(reverse("member-import", args=[elsewhere.slug]), {"file": upload})
    columns = {"name": 0, "first_name": 1, "last_name": 2, "email": 3, "phone": 4, "initials": 5}
    client.post(
        reverse("member-import-columns", args=[elsewhere.slug]), {"header": "on", **columns}
    )
    answer = client.post(reverse("member-import-review", args=[elsewhere.slug]))
    assert answer.status_code == 302, answer.context["problems"]
    imported = Player.objects.in_club(elsewhere).get(display_name=hostile)
    assert imported.phone == "+32 475 12 34 56"
