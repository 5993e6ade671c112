"""A club's full backup brings it back whole: after a restore into an emptied database every row
of the club compares equal to what it was (members and their accounts, roles, seasons, point
tables, nights in their state with their draws, deals and correction history, standings,
published and live rankings, result e-mails sent, invitations, profile choices) and its
members' photos are back; the site then serves it as before."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from club.management.backup import DATA, FORMAT, club_backup, club_data, club_restore, club_rows
from club.models import Club, Membership, Player
from games import services as games_services
from games.mailing import tournament_results_send
from games.models import DealChange, Tournament
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring import services as scoring_services
from scoring.models import RankingSnapshot

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
SOLO_LOST = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 5}


@pytest.fixture
def whole_club(
    club, running_night, imported_night, club_admin, scorer, django_capture_on_commit_callbacks
) -> Club:
    """A club with something of everything a club keeps."""
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_publish(imported_night)
        scoring_services.ranking_publish(imported_night.season)
        poule = running_night.poules.order_by("table").first()
        deal = scoring_services.deal_record(poule, SOLO, by=scorer)
        scoring_services.deal_correct(deal, SOLO_LOST, by=scorer)
        games_services.player_add_to_tournament(running_night, "Invité Dubois", guest=True)
    for player in Player.objects.in_club(club):
        player.email = f"joueur{player.pk}@example.org"
        player.save(update_fields=["email"])
    assert tournament_results_send(imported_night) > 0
    member = Player.objects.in_club(club).order_by("pk").first()
    member.public_name = Player.PublicName.INITIALS
    member.language = "nl"
    member.result_emails = False
    member.photo.save("players/anne.jpg", ContentFile(b"\xff\xd8\xff a photo"), save=True)
    assert DealChange.objects.filter(poule__tournament=running_night).exists()
    assert RankingSnapshot.objects.published().exists()
    assert Membership.objects.filter(club=club, status=Membership.Status.GUEST).exists()
    return club


def empty_the_site(club: Club) -> None:
    """What a lost database leaves: nothing of the club, no accounts, no photos."""
    for model, _queryset in reversed(list(club_rows(club))):
        model.objects.all().delete()
    for name in default_storage.listdir("players")[1]:
        default_storage.delete(f"players/{name}")


def test_a_restored_club_compares_equal_row_by_row(whole_club, client):
    before = club_data(whole_club)
    kinds = {row["model"] for row in before}
    assert {
        "auth.user",
        "club.player",
        "club.membership",
        "club.season",
        "games.pointtable",
        "games.tournament",
        "games.rounddraw",
        "games.deal",
        "games.dealchange",
        "games.resultemail",
        "scoring.poulestanding",
        "scoring.tournamentstanding",
        "scoring.rankingsnapshot",
        "scoring.rankingline",
    } <= kinds
    backup = club_backup(whole_club)
    empty_the_site(whole_club)
    assert not Club.objects.exists()
    assert not get_user_model().objects.exists()

    restored = club_restore(backup)

    assert restored.rows == len(before)
    assert restored.files == 1
    assert club_data(restored.club) == before
    photo = Player.objects.exclude(photo="").get()
    assert photo.photo.read() == b"\xff\xd8\xff a photo"
    # The site serves it again: its published ranking, its nights, and new rows get new ids.
    response = client.get(reverse("ranking", args=[restored.club.slug]))
    assert response.status_code == 200
    assert "Publié le" in response.content.decode()
    statuses = set(Tournament.objects.values_list("status", flat=True))
    assert statuses == {Tournament.Status.PUBLISHED, Tournament.Status.RUNNING}
    newcomer = Player.objects.create(display_name="Nouveau")
    assert newcomer.pk > max(row["pk"] for row in before if row["model"] == "club.player")


def test_a_restore_never_overwrites_another_clubs_rows(whole_club, tmp_path: Path):
    path = tmp_path / "club.zip"
    call_command("club_backup", whole_club.slug, "-o", str(path))
    # The club's rows are still here, changed: the restore refuses, and writes nothing.
    Player.objects.filter(pk=Player.objects.in_club(whole_club).first().pk).update(
        display_name="Quelqu'un d'autre"
    )
    with pytest.raises(CommandError, match="refused, nothing restored: .* would overwrite"):
        call_command("club_restore", str(path))
    assert Player.objects.filter(display_name="Quelqu'un d'autre").exists()


def test_a_backup_made_while_the_outbox_was_clubs_restores_its_pending_work(whole_club):
    season = whole_club.seasons.first()
    PendingWork.objects.create(task=TaskName.SEASON_RANKING_UPDATE, key=season.pk)
    document = {"format": FORMAT, "club": whole_club.slug, "rows": club_data(whole_club)}
    pending = [row for row in document["rows"] if row["model"] == "infra.pendingwork"]
    assert pending
    for row in pending:
        row["model"] = "club.pendingwork"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(DATA, json.dumps(document))
    empty_the_site(whole_club)
    PendingWork.objects.all().delete()

    club_restore(buffer.getvalue())

    assert PendingWork.objects.count() == len(pending)


def test_a_file_that_is_not_a_backup_is_refused(tmp_path: Path, db):
    path = tmp_path / "not.zip"
    path.write_bytes(b"not a zip")
    with pytest.raises(CommandError, match="not a club backup"):
        call_command("club_restore", str(path))


def test_a_backup_restored_onto_the_database_it_came_from_changes_nothing(whole_club):
    before = club_data(whole_club)
    # Times to the microsecond: a millisecond backup would find 37 rows "different".
    assert any(
        len(value) > 24 and "." in value
        for row in before
        for value in row["fields"].values()
        if isinstance(value, str) and value[:2] == "20" and value.endswith("Z")
    )

    restored = club_restore(club_backup(whole_club))

    assert restored.rows == len(before)
    assert club_data(whole_club) == before
