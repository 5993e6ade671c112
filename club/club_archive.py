"""Everything a club has, in one ZIP archive its admin downloads before he closes it (or to
keep): each night as a club-night file, its members, each season's ranking, its calendar, and
a README.txt that says what each file is.

The archive is written into a temporary file on disk, one night at a time, then streamed to
the browser from there: a club of ten seasons of forty nights never sits whole in a worker's
memory (a night's document does, one after the other). Every file is made by the exporter the
site already has: the night file's (``games.nightfile``), the CSV of the ranking exports
(``club.exports``), the calendar's feed (``games.calendar.feed``)."""

from __future__ import annotations

import json
import tempfile
import zipfile
from collections.abc import Callable
from typing import IO, Any

from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from games.calendar.feed import feed
from games.models import PlannedNight, Tournament
from games.nightfile_export import tournament_export
from infra.slugs import slug_of
from scoring.models import RankingLine, RankingSnapshot

from .exports import Column, columns_table, csv_text, ranking_columns
from .models import Club, Membership, Player
from .name_order import by_name

README = "README.txt"
MEMBERS = "membres.csv"
CALENDAR = "calendrier.ics"


def _member_columns(name_of: Callable[[Player], str]) -> list[Column]:
    return [
        (_("Nom"), lambda m: name_of(m.player)),
        (_("Prénom"), "player.first_name"),
        (_("Nom de famille"), "player.last_name"),
        (_("E-mail"), "player.email"),
        (_("Téléphone"), "player.phone"),
        (
            _("Initiales seulement"),
            lambda m: _("oui") if m.player.public_name == Player.PublicName.INITIALS else _("non"),
        ),
        (_("Statut"), lambda m: str(m.get_status_display())),
        (_("Rôle"), lambda m: str(m.get_role_display())),
        (_("Depuis"), lambda m: m.start.isoformat()),
        (_("Jusqu'au"), lambda m: m.end.isoformat() if m.end else ""),
    ]


def _members_csv(club: Club, name_of: Callable[[Player], str]) -> str:
    memberships = (
        Membership.objects.filter(club=club)
        .select_related("player")
        .order_by(*by_name("player__", club), "start")
    )
    return csv_text(*columns_table(_member_columns(name_of), memberships))


def _rankings(club: Club, name_of: Callable[[Player], str]) -> list[tuple[str, str]]:
    """Each season's latest published ranking and its provisional one, as (file name, CSV)."""
    snapshots = list(
        RankingSnapshot.objects.filter(season__club=club).filter(
            Q(pk__in=RankingSnapshot.objects.latest_published()) | Q(published_at__isnull=True)
        )
    )
    seasons = {s.pk: s for s in club.seasons.all()}
    lines: dict[int, list[RankingLine]] = {}
    for line in RankingLine.objects.filter(snapshot__in=[s.pk for s in snapshots]).in_order():
        lines.setdefault(line.snapshot_id, []).append(line)
    files = []
    in_order = sorted(snapshots, key=lambda s: (seasons[s.season_id].start, s.published_at is None))
    for snapshot in in_order:
        name = seasons[snapshot.season_id].slug
        if snapshot.published_at is None:
            name += "-" + slug_of(_("provisoire"))
        table = columns_table(ranking_columns(name_of), lines.get(snapshot.pk, []))
        files.append((f"classements/{name}.csv", csv_text(*table)))
    return files


def _night_name(night: Tournament) -> str:
    words = [night.date.isoformat(), str(night.pk)]
    if night.name:
        words.append(slug_of(night.name, 40))
    return f"soirees/{night.season.slug}/{'-'.join(words)}.json"


def club_archive(
    club: Club, name_of: Callable[[Player], str], *, by: str = ""
) -> tuple[IO[bytes], dict[str, int]]:
    """The club's archive in a temporary file (at its start, to be streamed and closed by the
    caller) and how many files of each kind it holds. ``name_of``: how the admin who asks may
    see each player named; ``by``: his name, for the README."""
    archive_file = tempfile.TemporaryFile()
    counts = {"nights": 0, "rankings": 0}
    with zipfile.ZipFile(archive_file, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MEMBERS, _members_csv(club, name_of))
        for name, text in _rankings(club, name_of):
            archive.writestr(name, text)
            counts["rankings"] += 1
        nights = (
            Tournament.objects.filter(club=club)
            .select_related("club", "season", "point_table", "federation_season__federation")
            .order_by("date", "pk")
        )
        for night in nights.iterator(chunk_size=100):
            document: dict[str, Any] = tournament_export(night, name_of=name_of)
            text = json.dumps(document, ensure_ascii=False, indent=1)
            archive.writestr(_night_name(night), text)
            counts["nights"] += 1
        planned = PlannedNight.objects.filter(club=club).select_related("club").order_by("date")
        archive.writestr(CALENDAR, feed(club.name, planned))
        context = {
            "club": club,
            "made": timezone.localtime(),
            "by": by,
            "counts": counts,
            "members": MEMBERS,
            "calendar": CALENDAR,
        }
        archive.writestr(README, render_to_string("club/archive_readme.txt", context))
    archive_file.seek(0)
    return archive_file, counts
