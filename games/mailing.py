"""A closed night's results, e-mailed to each participant who has not opted out."""

from __future__ import annotations

from typing import Any

from django.core.mail import EmailMessage
from django.urls import reverse

from club.mailing import email_message
from club.mailing.claimed import claimed_send, row_claimed
from club.models import Player
from club.names import name_shown, recipients
from club.unsubscribe import MailKind, unsubscribe_url
from infra.site_address import site_url
from scoring.models import PouleStanding, TournamentStanding

from .models import ResultEmail, Tournament


def result_address(player: Player) -> str:
    """Where a player's results go: his own e-mail, else his account's."""
    if player.email:
        return player.email
    return player.user.email if player.user_id and player.user else ""


def _receives(player: Player, sent_before: set[int]) -> bool:
    """Whether the night's close e-mails this participant: he has not opted out, has an
    address, and was not sent this night's results already (a night closed again)."""
    return bool(player.result_emails and result_address(player) and player.pk not in sent_before)


def _sent_before(tournament: Tournament) -> set[int]:
    return set(
        ResultEmail.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )


def result_recipients(tournament: Tournament) -> list[Player]:
    """Who would get the results by e-mail if the night were closed now (what the close's
    confirmation counts): its standings' players, by the sending's own rule."""
    sent_before = _sent_before(tournament)
    players = [
        line.player
        for line in TournamentStanding.objects.filter(tournament=tournament).select_related(
            "player__user"
        )
    ]
    return [player for player in players if _receives(player, sent_before)]


def tournament_results_send(tournament: Tournament) -> int:
    """E-mail each participant of the night his results, in his language; returns how many
    were sent. A participant already sent this night's results is skipped, so running it
    twice sends nothing twice; an address that fails is logged and the others still go."""
    tournament = Tournament.objects.select_related("club", "season").get(pk=tournament.pk)
    lines = list(
        TournamentStanding.objects.of_tournament(tournament).select_related("player__user")
    )
    sent_before = _sent_before(tournament)
    poules: dict[int, list[PouleStanding]] = {}
    for poule_line in (
        PouleStanding.objects.filter(poule__tournament=tournament)
        .select_related("poule")
        .order_by("poule__round", "poule__table")
    ):
        poules.setdefault(poule_line.player_id, []).append(poule_line)
    # Each recipient reads the winners as he may see them (``club.names``): initials for who
    # chose them, unless he is a member of one of the winner's clubs.
    winners = [line.player for line in lines if line.rank == 1]
    readers = recipients([line.player for line in lines], winners)
    site = site_url()
    results_url = site + reverse("my-results")
    profile_url = site + reverse("profile")
    public_url = (
        site + reverse("games:results", kwargs={"slug": tournament.club.slug, "pk": tournament.pk})
        if tournament.status == Tournament.Status.PUBLISHED
        else ""
    )

    def message(player: Player, address: str, connection: Any) -> EmailMessage:
        context = {
            "tournament": tournament,
            "club": tournament.club,
            "player": player,
            "line": lines_of[player.pk],
            "players": len(lines),
            "poules": poules.get(player.pk, []),
            "winners": [name_shown(winner, readers[player.pk]) for winner in winners],
            "results_url": results_url,
            "public_url": public_url,
            "profile_url": profile_url,
        }
        return email_message(
            "tournament_results",
            context,
            player.language,
            address,
            connection,
            club=tournament.club,
            unsubscribe=unsubscribe_url(MailKind.RESULTS, player),
        )

    lines_of = {line.player_id: line for line in lines}
    return claimed_send(
        (
            (line.player, result_address(line.player))
            for line in lines
            if _receives(line.player, sent_before)
        ),
        lambda player, address: row_claimed(
            ResultEmail, tournament=tournament, player=player, email=address
        ),
        message,
        f"night {tournament.pk}: results",
    )
