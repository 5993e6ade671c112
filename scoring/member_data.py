"""A member's download of everything the site keeps about him (his right to his own data).

Read-only, a fixed number of queries however many nights he played. ``SOURCES`` names every
row that holds a member's data and the document's key it is in (a test walks the models and
refuses one that is in neither ``SOURCES`` nor its list of those left out, with why).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from club.models import ApiToken, EmailChange, FederationAdmin, Player, PlayerClaim
from games.models import Deal, Seat
from games.numbering import sheet_numbers

from . import member_sections as sections
from .models import PouleStanding, TournamentStanding

DATA_FORMAT = "member-data/1"

# "app.Model.field" (the field naming the member's player or his login) → the document's key.
SOURCES = {
    "club.Player.user": "player",
    "club.Membership.player": "memberships",
    "club.Invitation.player": "invitations",
    "club.PlayerClaim.user": "account_claims",
    "club.PlayerClaim.player": "account_claims",
    "club.EmailChange.player": "email_changes",
    "club.ApiToken.user": "api_tokens",
    "club.FederationAdmin.player": "federation_roles",
    "club.PlayerMerge.kept": "merges",
    "club.PlayerMerge.merged": "merges",
    "club.Player.merged_into": "merges",
    "games.Seat.player": "nights",
    "games.Tournament.present": "present",
    "scoring.PouleStanding.player": "nights",
    "scoring.TournamentStanding.player": "nights",
    "games.MemberCalendar.player": "calendar",
    "games.Reply.player": "calendar_replies",
    "games.ReminderEmail.player": "emails_sent",
    "games.ResultEmail.player": "emails_sent",
    "scoring.PlayerRating.player": "cote",
    "scoring.RankingLine.player": "rankings",
    "scoring.FederationRankingLine.player": "federation_rankings",
}


_date = sections.iso


def member_data(user: AbstractBaseUser, player: Player) -> dict[str, Any]:
    """Everything the site keeps about the member, as a JSON-ready document.

    Other players appear only as seat numbers inside the deals of his tables, as on the
    score sheet; their points are left out. A fixed number of queries, however many nights.
    """
    tournaments: dict[int, dict[str, Any]] = {}
    poules: dict[int, dict[str, Any]] = {}
    games: dict[int, str] = {}
    seats = (
        Seat.objects.filter(player=player)
        .select_related("poule", "tournament__club", "tournament__season")
        .order_by("tournament__date", "tournament__name", "tournament_id", "round")
    )
    for seat in seats:
        tournament = seat.tournament
        if tournament.pk not in tournaments:
            tournaments[tournament.pk] = {
                "club": tournament.club.name,
                "season": tournament.season.name,
                "date": _date(tournament.date),
                "name": tournament.name,
                "game": tournament.game,
                "status": tournament.status,
                "rank": None,
                "tied": None,
                "tournament_points": None,
                "game_points": None,
                "poules_played": None,
                "poules_won": None,
                "poules": [],
            }
        poule = {
            "round": seat.poule.round,
            "table": seat.poule.table,
            "seat": seat.number,
            "rank": None,
            "tied": None,
            "game_points": None,
            "tournament_points": None,
            "deals": [],
        }
        poules[seat.poule_id] = poule
        games[seat.poule_id] = tournament.game
        tournaments[tournament.pk]["poules"].append(poule)

    for line in TournamentStanding.objects.filter(player=player):
        if line.tournament_id in tournaments:
            tournaments[line.tournament_id].update(
                rank=line.rank,
                tied=line.tied,
                tournament_points=str(line.tournament_points),
                game_points=line.game_points,
                poules_played=line.poules_played,
                poules_won=line.poules_won,
            )
    for line in PouleStanding.objects.filter(player=player):
        if line.poule_id in poules:
            poules[line.poule_id].update(
                rank=line.rank,
                tied=line.tied,
                game_points=line.game_points,
                tournament_points=str(line.tournament_points),
            )
    # A seat's points are at its place in the seat order; the seat numbers of each poule
    # come along with the deals (one query).
    numbers: dict[int, list[int]] = defaultdict(list)
    for poule_id, number in (
        Seat.objects.filter(poule__seats__player=player)
        .order_by("poule_id", "number")
        .values_list("poule_id", "number")
    ):
        numbers[poule_id].append(number)
    deals: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for poule_id, *deal in (
        Deal.objects.filter(poule__seats__player=player)
        .order_by("poule_id", "position")
        .values_list("poule_id", "data", "dealer", "counted", "points")
    ):
        deals[poule_id].append(deal)
    for poule_id, sheet in deals.items():
        poule = poules[poule_id]
        place = numbers[poule_id].index(poule["seat"])
        # Each deal under the number the sheet printed (None for a pass), as every page says.
        printed = sheet_numbers(
            games[poule_id], ((counted, data) for data, _d, counted, _p in sheet)
        )
        poule["deals"] += [
            {
                "number": number,
                "seat": poule["seat"],
                "dealer": dealer,
                "counted": counted,
                "data": data,
                "points": points[place] if place < len(points) else None,
            }
            for number, (data, dealer, counted, points) in zip(printed, sheet, strict=True)
        ]

    return {
        "format": DATA_FORMAT,
        "exported": timezone.now().isoformat(),
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": _date(user.date_joined),
            "last_login": _date(user.last_login),
        },
        "player": {
            "first_name": player.first_name,
            "last_name": player.last_name,
            "display_name": player.display_name,
            "initials": player.initials,
            "public_name": player.public_name,
            "photo": player.photo.url if player.photo else None,
            "email": player.email,
            "phone": player.phone,
            "language": player.language,
            "result_emails": player.result_emails,
            "created": _date(player.created),
        },
        "memberships": [
            {
                "club": membership.club.name,
                "role": membership.role,
                "status": membership.status,
                "start": _date(membership.start),
                "end": _date(membership.end),
            }
            for membership in player.memberships.select_related("club").order_by("start")
        ],
        "invitations": [
            {
                "club": invitation.club.name,
                "email": invitation.email,
                "sent": _date(invitation.created),
                "accepted": _date(invitation.accepted_at),
            }
            for invitation in player.invitations.select_related("club").order_by("created")
        ],
        # The document's key stays "nights" (member-data/1): a renamed key would break readers.
        "nights": list(tournaments.values()),
        # Keys added later to member-data/1: a reader of the first ones still reads them.
        "present": sections.present(player),
        "rankings": sections.rankings(player),
        "federation_rankings": sections.federation_rankings(player),
        "cote": sections.cote(player),
        **sections.calendar(player),
        "emails_sent": sections.emails_sent(player),
        "merges": sections.merges(player),
        "account_claims": [
            {
                "club": claim.club.name,
                "email": claim.email,
                "asked": _date(claim.created),
                "confirmed": _date(claim.confirmed_at),
            }
            for claim in PlayerClaim.objects.filter(Q(player=player) | Q(user=user))
            .select_related("club")
            .order_by("created")
        ],
        "email_changes": [
            {"email": change.email, "asked": _date(change.created)}
            for change in EmailChange.objects.filter(player=player).order_by("created")
        ],
        # Never a key's secret: its name and its first characters, as the profile shows them.
        "api_tokens": [
            {
                "name": token.name,
                "prefix": token.prefix,
                "read_only": token.read_only,
                "created": _date(token.created),
                "last_used": _date(token.last_used),
            }
            for token in ApiToken.objects.filter(user=user).order_by("created")
        ],
        "federation_roles": [
            {"federation": role.federation.name, "since": _date(role.since)}
            for role in FederationAdmin.objects.filter(player=player).select_related("federation")
        ],
    }
