"""A club's full backup and its restore (``manage.py club_backup`` / ``club_restore``).

The backup is a zip: ``club.json`` holds every row of the club, serialized by Django with its
primary keys — the club, its members and their accounts (password hashes included, so they log
in as before), memberships and roles, seasons, the point-table versions its nights were played
by, every night in its state (running, closed, published) with its draws, poules, seats, deals,
their correction history, standings and result e-mails already sent, every ranking snapshot
(published and live), invitations and pending claims, e-mail changes, work still pending; and
``media/…`` the members' photos.

A restore brings the club back whole into a database migrated to the same version: a fresh one
after a loss (the usual case), or the same one after the club was deleted. It is one
transaction, and refuses before writing anything if one of its rows would overwrite a
different row already there (another club's, on a shared site); restored onto the database it
came from, it changes nothing (times are kept to the microsecond).

What a backup leaves out: members' API keys (only their hashes are stored, and a key is a
secret of its member's: after a loss, each member makes a new one in his profile), login
throttle rows and sessions (short-lived: members log in again)."""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.db.models import Q

from club.models import (
    Club,
    EmailChange,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    Season,
)
from games.models import (
    Deal,
    DealChange,
    PointTable,
    Poule,
    ResultEmail,
    RoundDraw,
    Seat,
    Tournament,
)
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring.models import PouleStanding, RankingLine, RankingSnapshot, TournamentStanding

FORMAT = "club-backup/1"
DATA = "club.json"
MEDIA = "media/"


class RestoreRefused(Exception):
    """The backup cannot be restored here; nothing was written."""


def club_rows(club: Club) -> Iterator[tuple[type[models.Model], models.QuerySet]]:
    """Every row of the club, model by model, in an order a restore can write them in."""
    tournaments = Tournament.objects.filter(club=club)
    seasons = Season.objects.filter(club=club)
    # Its members, and anyone who sat at one of its tables (a guest without a membership).
    player_ids = set(Membership.objects.filter(club=club).values_list("player", flat=True))
    player_ids |= set(Seat.objects.filter(tournament__club=club).values_list("player", flat=True))
    user_q = (
        Q(player__in=player_ids)
        | Q(pk__in=Invitation.objects.filter(club=club).values("invited_by"))
        | Q(pk__in=PlayerClaim.objects.filter(club=club).values("user"))
        | Q(pk__in=RoundDraw.objects.filter(tournament__club=club).values("drawn_by"))
        | Q(pk__in=Deal.objects.filter(poule__tournament__club=club).values("recorded_by"))
        | Q(pk__in=DealChange.objects.filter(poule__tournament__club=club).values("by"))
    )
    yield get_user_model(), get_user_model().objects.filter(user_q).distinct()
    yield PointTable, PointTable.objects.filter(pk__in=tournaments.values("point_table"))
    yield Club, Club.objects.filter(pk=club.pk)
    yield Player, Player.objects.filter(pk__in=player_ids)
    yield Membership, Membership.objects.filter(club=club)
    yield Season, seasons
    yield Invitation, Invitation.objects.filter(club=club)
    yield PlayerClaim, PlayerClaim.objects.filter(club=club)
    yield EmailChange, EmailChange.objects.filter(player__in=player_ids)
    yield Tournament, tournaments
    yield RoundDraw, RoundDraw.objects.filter(tournament__club=club)
    yield Poule, Poule.objects.filter(tournament__club=club)
    yield Seat, Seat.objects.filter(tournament__club=club)
    yield Deal, Deal.objects.filter(poule__tournament__club=club)
    yield DealChange, DealChange.objects.filter(poule__tournament__club=club)
    yield ResultEmail, ResultEmail.objects.filter(tournament__club=club)
    yield PouleStanding, PouleStanding.objects.filter(poule__tournament__club=club)
    yield TournamentStanding, TournamentStanding.objects.filter(tournament__club=club)
    yield RankingSnapshot, RankingSnapshot.objects.filter(season__club=club)
    yield RankingLine, RankingLine.objects.filter(snapshot__season__club=club)
    yield (
        PendingWork,
        PendingWork.objects.filter(
            Q(task=TaskName.RESULTS_EMAIL, key__in=tournaments.values("pk"))
            | Q(
                task__in=[TaskName.SEASON_RANKING_UPDATE, TaskName.RANKING_PUBLISH],
                key__in=seasons.values("pk"),
            )
        ),
    )


class ExactEncoder(DjangoJSONEncoder):
    """Django's encoder, but times to the microsecond (Django's stops at the millisecond): a
    backup restored onto the database it came from then finds every row equal."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        if isinstance(o, datetime.time):
            return o.isoformat()
        return super().default(o)


def _rows(objects: Any) -> list[dict[str, Any]]:
    """Rows as Django serializes them (model, pk, fields), as plain JSON values."""
    return json.loads(json.dumps(serializers.serialize("python", objects), cls=ExactEncoder))


def club_data(club: Club) -> list[dict[str, Any]]:
    """The club's rows as Django serializes them (model, pk, fields), in restore order."""
    rows: list[dict[str, Any]] = []
    for _model, queryset in club_rows(club):
        rows += _rows(queryset.order_by("pk"))
    return rows


def club_backup(club: Club) -> bytes:
    """The club's backup as the bytes of a zip file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        document = {"format": FORMAT, "club": club.slug, "rows": club_data(club)}
        archive.writestr(DATA, json.dumps(document, ensure_ascii=False, indent=1))
        photos = Player.objects.in_club(club).exclude(photo="").values_list("photo", flat=True)
        for name in photos:
            if default_storage.exists(name):
                with default_storage.open(name, "rb") as photo:
                    archive.writestr(MEDIA + name, photo.read())
    return buffer.getvalue()


@dataclass(frozen=True)
class Restored:
    club: Club
    rows: int
    files: int


def _conflicts(objects: list[Any]) -> list[str]:
    """Rows of the backup whose primary key holds a different row here."""
    found = []
    for deserialized in objects:
        obj = deserialized.object
        model = type(obj)
        present = model.objects.filter(pk=obj.pk).first()
        if present is None:
            continue
        wanted = _rows([obj])[0]["fields"]
        there = _rows([present])[0]["fields"]
        if wanted != there:
            found.append(f"{model._meta.label} #{obj.pk}")
    return found


# Models that changed app: a backup made before names them by their former label.
FORMER_LABELS = {"club.pendingwork": "infra.pendingwork"}


def _relabelled(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**row, "model": FORMER_LABELS.get(row["model"], row["model"])} for row in rows]


@transaction.atomic
def club_restore(data: bytes) -> Restored:
    """Restore a backup made by ``club_backup``; raises ``RestoreRefused`` (nothing written)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        document = json.loads(archive.read(DATA))
    except (zipfile.BadZipFile, KeyError, ValueError) as unreadable:
        raise RestoreRefused(f"not a club backup ({unreadable})") from unreadable
    if document.get("format") != FORMAT:
        raise RestoreRefused(f"not a {FORMAT} file")
    objects = list(serializers.deserialize("python", _relabelled(document["rows"])))
    for deserialized in objects:
        # A player's folded name is the model's to keep, and a raw save skips the field's
        # ``pre_save``: made again from his name (a backup older than it has none).
        if isinstance(deserialized.object, Player):
            Player._meta.get_field("name_key").pre_save(deserialized.object, add=True)
    conflicts = _conflicts(objects)
    if conflicts:
        shown = ", ".join(conflicts[:10])
        raise RestoreRefused(f"{len(conflicts)} rows would overwrite different ones: {shown}")
    for deserialized in objects:
        deserialized.save()
    # Rows came with their ids: the next ones the site creates must not reuse them.
    models_written = {type(d.object) for d in objects}
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(models_written)):
            cursor.execute(statement)
    files = 0
    for name in archive.namelist():
        if not name.startswith(MEDIA) or name.endswith("/"):
            continue
        stored = str(PurePosixPath(name[len(MEDIA) :]))
        if ".." in PurePosixPath(stored).parts:
            raise RestoreRefused(f"{name}: outside the media folder")
        if default_storage.exists(stored):
            default_storage.delete(stored)
        default_storage.save(stored, ContentFile(archive.read(name)))
        files += 1
    club = Club.objects.get(slug=document["club"])
    return Restored(club=club, rows=len(objects), files=files)
