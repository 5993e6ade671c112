"""The parts of a member's download beyond his nights (``scoring.member_data``): where he
was present, his rankings, his « cote », his calendar, the e-mails sent him, his merges.
Each one query or two, however much he played."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Q

from club.models import Player, PlayerMerge
from games.models import MemberCalendar, ReminderEmail, Reply, ResultEmail, Tournament, night_title

from .models import FederationRankingLine, PlayerRating, RankingLine


def iso(value: datetime.date | datetime.datetime | None) -> str | None:
    """A date or a moment as the document writes it (None stays None)."""
    return value.isoformat() if value is not None else None


def present(player: Player) -> list[dict[str, Any]]:
    """The nights he was marked present at (seated or not yet)."""
    return [
        {"club": club, "date": iso(date), "name": night_title(name, date)}
        for club, date, name in Tournament.objects.filter(present=player)
        .order_by("date", "pk")
        .values_list("club__name", "date", "name")
    ]


def _line(line: Any) -> dict[str, Any]:
    """A ranking's line; a figure an imported ranking does not give stays None."""
    return {
        "rank": line.rank,
        "tied": line.tied,
        "tournament_points": str(line.tournament_points),
        "game_points": line.game_points,
        "tournaments_played": line.tournaments_played,
        "tournaments_counted": line.tournaments_counted,
        "tournaments_won": line.tournaments_won,
    }


def rankings(player: Player) -> list[dict[str, Any]]:
    lines = (
        RankingLine.objects.filter(player=player)
        .select_related("snapshot__season__club")
        .order_by("snapshot__season__start", "snapshot__computed_at")
    )
    return [
        {
            "club": line.snapshot.season.club.name,
            "season": line.snapshot.season.name,
            "published": iso(line.snapshot.published_at),
            "imported": line.snapshot.imported,
            **_line(line),
        }
        for line in lines
    ]


def federation_rankings(player: Player) -> list[dict[str, Any]]:
    lines = (
        FederationRankingLine.objects.filter(player=player)
        .select_related("ranking__season__federation")
        .order_by("ranking__season__start")
    )
    return [
        {
            "federation": line.ranking.season.federation.name,
            "season": line.ranking.season.name,
            "computed": iso(line.ranking.computed_at),
            "clubs_played": line.clubs_played,
            **_line(line),
        }
        for line in lines
    ]


def cote(player: Player) -> list[dict[str, Any]]:
    """His « cote » after each night, in order: its whole history."""
    ratings = (
        PlayerRating.objects.filter(player=player)
        .select_related("tournament__club")
        .order_by("tournament__date", "tournament_id")
    )
    return [
        {
            "club": rating.tournament.club.name,
            "date": iso(rating.tournament.date),
            "night": night_title(rating.tournament.name, rating.tournament.date),
            "game": rating.game,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "cote": rating.conservative,
            "deals": rating.deals,
            "night_deals": rating.night_deals,
            "expected": rating.expected,
            "actual": rating.actual,
        }
        for rating in ratings
    ]


def calendar(player: Player) -> dict[str, Any]:
    """His calendar choices and replies. Whether his private feed exists, never its secret
    address (the download may be kept anywhere; the address would let anyone read it)."""
    settings = MemberCalendar.objects.filter(player=player).first()
    replies = (
        Reply.objects.filter(player=player)
        .select_related("night__club")
        .order_by("night__date", "night__start", "night_id")
    )
    return {
        "calendar": {
            "reminders": settings.reminders if settings else MemberCalendar().reminders,
            "private_feed": bool(settings and settings.feed_key),
        },
        "calendar_replies": [
            {
                "club": reply.night.club.name,
                "date": iso(reply.night.date),
                "start": reply.night.start.isoformat(timespec="minutes"),
                "name": reply.night.name,
                "answer": reply.answer,
                "waiting": reply.waiting,
                "answered": iso(reply.answered),
                "promoted": iso(reply.promoted),
            }
            for reply in replies
        ],
    }


def emails_sent(player: Player) -> list[dict[str, Any]]:
    """The e-mails the site sent him about a night: its results, a planned night's reminder."""
    results = [
        {
            "kind": "results",
            "club": sent.tournament.club.name,
            "date": iso(sent.tournament.date),
            "email": sent.email,
            "sent": iso(sent.sent_at),
        }
        for sent in ResultEmail.objects.filter(player=player).select_related("tournament__club")
    ]
    reminders = [
        {
            "kind": "reminder",
            "club": sent.night.club.name,
            "date": iso(sent.night.date),
            "email": sent.email,
            "sent": iso(sent.sent_at),
        }
        for sent in ReminderEmail.objects.filter(player=player).select_related("night__club")
    ]
    return sorted(results + reminders, key=lambda sent: sent["sent"] or "")


def merges(player: Player) -> list[dict[str, Any]]:
    """The merges of his record with another (proposed, done, refused or undone)."""
    merges = (
        PlayerMerge.objects.filter(Q(kept=player) | Q(merged=player))
        .select_related("club")
        .order_by("proposed_at")
    )
    return [
        {
            "club": merge.club.name,
            # The other record is not named: a refused merge's was somebody else's.
            "this_record": "kept" if merge.kept_id == player.pk else "merged",
            "status": merge.status,
            "proposed": iso(merge.proposed_at),
            "decided": iso(merge.decided_at),
            "undone": iso(merge.undone_at),
        }
        for merge in merges
    ]
