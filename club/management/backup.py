"""A club's full backup and its restore (``manage.py club_backup`` / ``club_restore``).

The backup is a zip: ``club.json`` holds every row of the club, in every app, serialized by
Django with its primary keys — the club, its members and their accounts (password hashes
included, so they log in as before), memberships and roles, seasons, the point-table versions
its nights were played by, every night in its state (running, closed, published) with its draws,
poules, seats, deals, their correction history, standings and result e-mails already sent, every
ranking snapshot (published and live), the cote and each player's night and season statistics
(held as computed: the restored pages show them at once, the same to the last digit, with no
recomputation), its calendar (settings, series, planned nights, members' replies, reminders
sent, members' calendar settings), invitations, pending claims, e-mail changes, join requests,
member imports, merges, its closing and its sign-up, the outbox's work still waiting on any of
these; its federations, their seasons and its place in them (its invitations too); and
``media/…`` the members' photos. ``club_rows`` says which rows; a test walks every model with a
path to a club and fails on one that is neither here, nor rebuilt, nor in ``LEFT_OUT`` with why.

Rebuilt at restore (``REBUILT``): the federation's ranking, by ``federation_ranking_update``,
from the nights the site holds once the club is back — its own hosted nights; the other clubs'
nights come back with their own backups, each restore ranking the federation again.

Shared rows: the federation and its seasons, the visitors from other clubs who sat at its
tables (and any player who is no member of it), the logins that are no member's of it. A backup
brings them so that it restores into an empty database with no broken reference; a restore
keeps them as the site has them when they are there already (the federation's or the other
clubs' to change since), and refuses when another row holds a shared row's unique name.

A restore brings the club back whole into a database migrated to the same version: a fresh one
after a loss (the usual case), or the same one after the club was deleted. It is one
transaction, and refuses before writing anything if one of the club's own rows would overwrite
a different row already there (another club's, on a shared site); restored onto the database
it came from, it writes nothing (times are kept to the microsecond).

What a backup leaves out (``LEFT_OUT``): members' API keys (only their hashes are stored, and a
key is a secret of its member's: after a loss, each member makes a new one in his profile), the
federation's administrators, the operator's admin history, a sign-up's e-mailed links, login
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
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.db.models import Q

from club.models import (
    Club,
    ClubClosing,
    ClubSignup,
    EmailChange,
    Federation,
    FederationInvitation,
    FederationSeason,
    Invitation,
    JoinRequest,
    MemberImport,
    Membership,
    Player,
    PlayerClaim,
    PlayerMerge,
    Season,
)
from clubsite.models import NewsEmail, NewsPost, NewsReader, Page, PageVersion
from games.calendar.models import (
    ClubCalendar,
    MemberCalendar,
    PlannedNight,
    PlannedSeries,
    ReminderEmail,
    Reply,
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
from scoring.models import (
    PlayerNightStats,
    PlayerRating,
    PlayerSeasonStats,
    PouleStanding,
    RankingLine,
    RankingSnapshot,
    SeasonNights,
    TournamentStanding,
)
from scoring.services import federation_ranking_update

FORMAT = "club-backup/2"
# Backups made before the club's shared rows were set apart: every row is the club's own.
FORMATS = ("club-backup/1", FORMAT)
DATA = "club.json"
MEDIA = "media/"

# Fields a row is backed up without: a many-to-many that reaches beyond the club (its rows are
# backed up on their own, those of this club alone), or one the site never fills.
FIELDS_LEFT_OUT = {
    # A federation's clubs: only this club's place in it (``Federation.clubs.through``).
    Federation: {"clubs"},
    # The clubs that approved a claim: only this club's approval (``approved_by.through``).
    PlayerClaim: {"approved_by"},
    # The site gives no group and no permission of its own to a login (staff and operator
    # rights are the account's flags, kept).
    get_user_model(): {"groups", "user_permissions"},
}

# Rows with a path to a club that its backup holds not, and why (a test walks every model).
LEFT_OUT = {
    "club.ApiToken": "a member's API key is his secret (only its hash is stored): after a loss "
    "he makes a new one in his profile",
    "club.FederationAdmin": "the federation's administrators act for all its clubs: the "
    "federation's rows, named again by the operator",
    "admin.LogEntry": "the operator's admin history, the site's and not a club's",
    "sessions.Session": "short-lived: members log in again",
    "infra.ThrottleEvent": "wrong passwords counted for a few minutes",
    "club.SignupLink": "the hashes of the links a sign-up e-mailed: once the club is open they "
    "confirm nothing more, and they expire with the sign-up",
    # Not yet: an album's rows without their files would be broken on another site.
    "clubsite.Album": "the club's albums, whose photos live in the photo storage (its folder "
    "or bucket, deploy/scaling.md), backed up with that storage, not in a club's backup",
    "clubsite.Photo": "an album's photos: as its albums, with the photo storage",
    "clubsite.ContactMessage": "a visitor's message, e-mailed to the club's address when it "
    "came: the club's mailbox keeps it",
}
# Rows the restore computes again, from the rows it brought back, and by which service.
REBUILT = {
    "scoring.FederationRanking": "federation_ranking_update, from the federation's nights "
    "present once the club is back (other clubs' nights are their backups')",
    "scoring.FederationRankingLine": "the lines of that ranking, written again with it",
}

# The outbox's work waiting on the club's rows: each task by the model its key is an id of.
PENDING_WORK_KEYS = {
    TaskName.SEASON_RANKING_UPDATE: Season,
    TaskName.RANKING_PUBLISH: Season,
    TaskName.RATINGS_UPDATE: Tournament,
    TaskName.FEDERATION_RANKING_UPDATE: FederationSeason,
    TaskName.RESULTS_EMAIL: Tournament,
    TaskName.REMINDERS_EMAIL: PlannedNight,
    TaskName.NUDGE_EMAIL: PlannedNight,
    TaskName.PROMOTED_EMAIL: Reply,
    TaskName.FEDERATION_INVITATION_EMAIL: FederationInvitation,
    TaskName.MERGE_ROLES_EMAIL: PlayerMerge,
    TaskName.JOIN_REQUEST_EMAIL: JoinRequest,
    TaskName.SIGNUP_LINK_EMAIL: ClubSignup,
    TaskName.SIGNUP_OPERATORS_EMAIL: ClubSignup,
    TaskName.SIGNUP_DECISION_EMAIL: ClubSignup,
    TaskName.MEMBER_INVITATIONS_EMAIL: MemberImport,
    TaskName.CLUB_CLOSED_EMAIL: ClubClosing,
    # A photo's work: its rows are left out (LEFT_OUT), and so is the work waiting on them.
    TaskName.PHOTO_COPIES: None,
    TaskName.PHOTO_TAKEDOWN_EMAIL: None,
    TaskName.NEWS_EMAIL: NewsPost,
    # A visitor's message is left out (LEFT_OUT), and so is its e-mail waiting.
    TaskName.CONTACT_EMAIL: None,
    TaskName.NIGHT_SHARE_PICTURE: Tournament,
    TaskName.SEASON_SHARE_PICTURE: Season,
}


class RestoreRefused(Exception):
    """The backup cannot be restored here; nothing was written."""


Rows = list[tuple[type[models.Model], models.QuerySet]]


def _ids_named(rows: Rows, target: type[models.Model]) -> set[int]:
    """The ids of ``target`` that ``rows`` point at, by any foreign key or many-to-many."""
    ids: set[int] = set()
    for model, queryset in rows:
        left_out = FIELDS_LEFT_OUT.get(model, set())
        for field in model._meta.get_fields():
            if field.concrete and field.is_relation and field.related_model is target:
                if field.name not in left_out:
                    named = queryset.exclude(**{field.name: None}).values_list(field.name)
                    ids |= {pk for (pk,) in named.order_by().distinct()}
    return ids


def _club_own_rows(club: Club) -> Rows:
    """The club's rows that name no player and no login of their own accord, in restore order."""
    tournaments = Tournament.objects.filter(club=club)
    federations = Federation.objects.filter(
        Q(clubs=club)
        | Q(invitations__club=club)
        | Q(seasons__in=tournaments.values("federation_season"))
    ).distinct()
    planned = PlannedNight.objects.filter(club=club)
    return [
        (PointTable, PointTable.objects.filter(pk__in=tournaments.values("point_table"))),
        (Club, Club.objects.filter(pk=club.pk)),
        (Membership, Membership.objects.filter(club=club)),
        (Season, Season.objects.filter(club=club)),
        (Invitation, Invitation.objects.filter(club=club)),
        (PlayerClaim, PlayerClaim.objects.filter(club=club)),
        (
            PlayerClaim.approved_by.through,
            PlayerClaim.approved_by.through.objects.filter(club=club),
        ),
        (Federation, Federation.objects.filter(pk__in=federations.values("pk"))),
        (Federation.clubs.through, Federation.clubs.through.objects.filter(club=club)),
        (
            FederationSeason,
            FederationSeason.objects.filter(federation__in=federations.values("pk")),
        ),
        (FederationInvitation, FederationInvitation.objects.filter(club=club)),
        (ClubSignup, ClubSignup.objects.filter(club=club)),
        (JoinRequest, JoinRequest.objects.filter(club=club)),
        (MemberImport, MemberImport.objects.filter(club=club)),
        (PlayerMerge, PlayerMerge.objects.filter(club=club)),
        (ClubClosing, ClubClosing.objects.filter(club=club)),
        (Tournament, tournaments),
        (RoundDraw, RoundDraw.objects.filter(tournament__club=club)),
        (Poule, Poule.objects.filter(tournament__club=club)),
        (Seat, Seat.objects.filter(tournament__club=club)),
        (Deal, Deal.objects.filter(poule__tournament__club=club)),
        (DealChange, DealChange.objects.filter(poule__tournament__club=club)),
        (ResultEmail, ResultEmail.objects.filter(tournament__club=club)),
        (PouleStanding, PouleStanding.objects.filter(poule__tournament__club=club)),
        (TournamentStanding, TournamentStanding.objects.filter(tournament__club=club)),
        (RankingSnapshot, RankingSnapshot.objects.filter(season__club=club)),
        (RankingLine, RankingLine.objects.filter(snapshot__season__club=club)),
        (PlayerRating, PlayerRating.objects.filter(tournament__club=club)),
        (PlayerNightStats, PlayerNightStats.objects.filter(tournament__club=club)),
        (PlayerSeasonStats, PlayerSeasonStats.objects.filter(season__club=club)),
        # Each season's chart of Mes résultats, stored at close as the summaries are.
        (SeasonNights, SeasonNights.objects.filter(season__club=club)),
        (ClubCalendar, ClubCalendar.objects.filter(club=club)),
        (PlannedSeries, PlannedSeries.objects.filter(club=club)),
        (PlannedNight, planned),
        (Reply, Reply.objects.filter(night__club=club)),
        (ReminderEmail, ReminderEmail.objects.filter(night__club=club)),
        # The club's own site: its pages and every version of each.
        (Page, Page.objects.filter(club=club)),
        (PageVersion, PageVersion.objects.filter(page__club=club)),
        # Its news, who asked for it by e-mail, and to whom each post went (never sent twice).
        (NewsPost, NewsPost.objects.filter(club=club)),
        (NewsReader, NewsReader.objects.filter(club=club)),
        (NewsEmail, NewsEmail.objects.filter(post__club=club)),
    ]


def _players(club: Club, rows: Rows) -> set[int]:
    """Its members, and every player its rows name (a visitor at its tables, a former player of
    an imported ranking, one who asked to join), with the records they were merged into."""
    ids = set(Membership.objects.filter(club=club).values_list("player", flat=True))
    ids |= _ids_named(rows, Player)
    while True:
        merged_into = set(
            Player.objects.filter(pk__in=ids)
            .exclude(merged_into=None)
            .values_list("merged_into", flat=True)
        )
        if merged_into <= ids:
            return ids
        ids |= merged_into


def club_rows(club: Club) -> Iterator[tuple[type[models.Model], models.QuerySet]]:
    """Every row of the club, model by model, in an order a restore can write them in."""
    rows = _club_own_rows(club)
    player_ids = _players(club, rows)
    players = Player.objects.filter(pk__in=player_ids)
    personal: Rows = [
        (EmailChange, EmailChange.objects.filter(player__in=player_ids)),
        (MemberCalendar, MemberCalendar.objects.filter(player__in=player_ids)),
    ]
    User = get_user_model()
    user_ids = _ids_named([(Player, players), *rows], User)
    yield User, User.objects.filter(pk__in=user_ids)
    yield from rows[:2]  # its point tables, the club
    yield Player, players
    yield from rows[2:]
    yield from personal
    by_model: dict[type[models.Model], models.QuerySet] = dict(rows)
    waiting = Q(pk__in=[])
    for task, model in PENDING_WORK_KEYS.items():
        if model is not None:
            waiting |= Q(task=task, key__in=by_model[model].values("pk"))
    yield PendingWork, PendingWork.objects.filter(waiting)


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
    """Rows as Django serializes them (model, pk, fields), as plain JSON values; of one model."""
    objects = list(objects)
    if not objects:
        return []
    model = type(objects[0])
    left_out = FIELDS_LEFT_OUT.get(model)
    fields = None
    if left_out:
        fields = [
            field.name
            for field in model._meta.get_fields()
            if field.concrete and not field.primary_key and field.name not in left_out
        ]
    python = serializers.serialize("python", objects, fields=fields)
    return json.loads(json.dumps(python, cls=ExactEncoder))


def club_data(club: Club) -> list[dict[str, Any]]:
    """The club's rows as Django serializes them (model, pk, fields), in restore order."""
    rows: list[dict[str, Any]] = []
    for _model, queryset in club_rows(club):
        rows += _rows(queryset.order_by("pk"))
    return rows


def club_shared(club: Club, rows: list[dict[str, Any]]) -> list[list[Any]]:
    """Which of ``rows`` the club shares with others, as ``[model, pk]``: its federations and
    their seasons, the visitors from other clubs who played at its tables (and any player who
    is no member of it), the logins that are no member's of it (the operator, a federation's
    administrator). A restore keeps these as the site has them when they are there already:
    they are the federation's or the other clubs' to change since."""
    members = set(Membership.objects.filter(club=club).values_list("player", flat=True))
    member_logins = {
        row["fields"]["user"]
        for row in rows
        if row["model"] == "club.player" and row["pk"] in members and row["fields"]["user"]
    }
    user_label = get_user_model()._meta.label_lower
    shared = []
    for row in rows:
        model, pk = row["model"], row["pk"]
        if (
            model in {"club.federation", "club.federationseason"}
            or (model == "club.player" and pk not in members)
            or (model == user_label and pk not in member_logins)
        ):
            shared.append([model, pk])
    return shared


def club_backup(club: Club) -> bytes:
    """The club's backup as the bytes of a zip file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        rows = club_data(club)
        shared = club_shared(club, rows)
        document = {"format": FORMAT, "club": club.slug, "rows": rows, "shared": shared}
        archive.writestr(DATA, json.dumps(document, ensure_ascii=False, indent=1))
        # The files its rows name: members' photos, the club's logo, its news posts' photos.
        photos = [
            *Player.objects.in_club(club).exclude(photo="").values_list("photo", flat=True),
            *([club.logo.name] if club.logo else []),
            *NewsPost.objects.filter(club=club).exclude(photo="").values_list("photo", flat=True),
        ]
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


Key = tuple[type[models.Model], Any]


def _present(objects: list[Any]) -> dict[Key, models.Model]:
    """The rows already here under the ids of the backup's, a query per model (and batch)."""
    wanted: dict[type[models.Model], list[Any]] = {}
    for deserialized in objects:
        wanted.setdefault(type(deserialized.object), []).append(deserialized.object.pk)
    return {
        (model, pk): row
        for model, pks in wanted.items()
        for pk, row in model._default_manager.in_bulk(pks).items()
    }


def _conflicts(
    objects: list[Any], rows: list[dict[str, Any]], present: dict[Key, models.Model], shared: set
) -> list[str]:
    """Rows of the backup that would overwrite a different row here: one of the club's own whose
    id holds another row, or a shared one absent under its id whose unique name another row
    holds here (a federation made again by hand under a new id)."""
    found = []
    for deserialized, row in zip(objects, rows, strict=True):
        obj = deserialized.object
        model = type(obj)
        there = present.get((model, obj.pk))
        if (row["model"], row["pk"]) in shared:
            if there is None:
                try:
                    obj.validate_unique()
                except ValidationError:
                    found.append(f"{model._meta.label} #{obj.pk}")
            continue
        if there is None:
            continue
        fields = _rows([there])[0]["fields"]
        if any(fields.get(name) != value for name, value in row["fields"].items()):
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
    if document.get("format") not in FORMATS:
        raise RestoreRefused(f"not a {FORMAT} file")
    rows = _relabelled(document["rows"])
    shared = {tuple(key) for key in document.get("shared", [])}
    objects = list(serializers.deserialize("python", rows))
    for deserialized in objects:
        # A player's folded names are the model's to keep, and a raw save skips the field's
        # ``pre_save``: made again from his name (a backup older than it has none).
        if isinstance(deserialized.object, Player):
            for key in ("name_key", "sort_key", "sort_key_bare"):
                Player._meta.get_field(key).pre_save(deserialized.object, add=True)
    present = _present(objects)
    conflicts = _conflicts(objects, rows, present, shared)
    if conflicts:
        shown = ", ".join(conflicts[:10])
        raise RestoreRefused(f"{len(conflicts)} rows would overwrite different ones: {shown}")
    # A row here already is the same (the club's own) or kept as the site has it (shared).
    written = [d for d in objects if (type(d.object), d.object.pk) not in present]
    for deserialized in written:
        # Known absent: one INSERT each, without the UPDATE a save tries first (twice as fast).
        deserialized.save(force_insert=True)
    # Rows came with their ids: the next ones the site creates must not reuse them.
    models_written = {type(d.object) for d in written}
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(models_written)):
            cursor.execute(statement)
    # The federation's ranking counts the nights the site holds now, this club's among them.
    for deserialized in objects:
        if isinstance(deserialized.object, FederationSeason):
            federation_ranking_update(FederationSeason.objects.get(pk=deserialized.object.pk))
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
