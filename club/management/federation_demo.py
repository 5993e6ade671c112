"""The demo's federation: the « Ligue belge de whist » of RCWhist, the Cœurs de Namur and a
small whist club of Wavre, its 2025 season and two inter-club nights, one hosted by RCWhist and
one by Wavre, played as a club plays a night on the site: the players ticked present (visitors
of the other clubs without joining the host), each round drawn, each table's deals recorded,
the night closed and published. Publishing has the federation's ranking computed (the outbox's
task, eager in the demo), so its page shows from the first view.

Its clubs are invited and each accepts, as a federation's clubs join on the site. Called by
``manage.py demo_club`` once its two clubs exist.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from club import services as club_services
from club.models import Club, Federation, FederationSeason, Membership, Player
from games import services as games_services
from games.demo import random_sheet
from games.models import Tournament
from scoring import services as scoring_services

FEDERATION = "Ligue belge de whist"
WAVRE_CLUB = "Whist Club de Wavre"
# Wavre's own ten players; two RCWhist members play there too (a player of two whist clubs).
WAVRE_PLAYERS = [
    "Marc Delhaye", "Nathalie Gérard", "Olivier Piret", "Pascale Lambotte", "Régis Vandenberghe",
    "Sandrine Close", "Thomas Bodart", "Véronique Halleux", "Benoît Lardinois",
    "Christine Wauters",
]  # fmt: skip
WAVRE_FROM_RCWHIST = ["Geneviève Maes", "Jacques Willems"]
SEASON_START, SEASON_END = datetime.date(2025, 1, 1), datetime.date(2025, 12, 31)


def federation_exists() -> bool:
    return Federation.objects.filter(name=FEDERATION).exists()


def federation_demo(rng: random.Random, rcwhist: Club, hearts: Club, admin: Player | None) -> str:
    """Build the federation and its two published inter-club nights; returns what to print."""
    with transaction.atomic():
        wavre = _wavre_club(rcwhist)
        # Asked, then accepted by each club's admin: the road a federation takes on the site.
        federation = club_services.federation_open(
            FEDERATION, invite=[rcwhist, hearts, wavre], admin=admin
        )
        for invitation in federation.invitations.select_related("club"):
            club_services.federation_invitation_answer(
                invitation, accept=True, by=_club_admin_login(invitation.club)
            )
        season = club_services.federation_season_create(
            federation, "2025", SEASON_START, SEASON_END
        )
        rcwhist_players = _whist_players(rcwhist, but=wavre)
        wavre_players = _whist_players(wavre)
        # The Cœurs de Namur play hearts: only two of them, who play whist too, come along.
        hearts_players = _whist_players(hearts, but=rcwhist)[1:3]
        nights = [
            _interclub_night(
                rng,
                season,
                rcwhist,
                datetime.date(2025, 3, 22),
                "Interclubs de printemps",
                rng.sample(rcwhist_players, 10) + rng.sample(wavre_players, 6),
            ),
            _interclub_night(
                rng,
                season,
                wavre,
                datetime.date(2025, 10, 18),
                "Interclubs d'automne",
                rng.sample(wavre_players, 9) + rng.sample(rcwhist_players, 7) + hearts_players,
            ),
        ]
    # The ranking's task ran once the nights' publication committed (eager without a broker).
    return (
        f"{FEDERATION}: {federation.clubs.count()} clubs, season {season.name}, "
        f"{len(nights)} inter-club nights."
    )


def _club_admin_login(club: Club) -> AbstractBaseUser | None:
    """The login of a current admin of the club (Wavre's president has none)."""
    return (
        get_user_model()
        .objects.filter(
            Membership.objects.current_q("player__memberships"),
            player__memberships__club=club,
            player__memberships__role=Membership.Role.ADMIN,
        )
        .order_by("pk")
        .first()
    )


def _wavre_club(rcwhist: Club) -> Club:
    """A small whist club opened by the operator, its president first, since 2025."""
    wavre, _president = club_services.club_open(
        WAVRE_CLUB, admin_name=WAVRE_PLAYERS[0], default_rules="rcwhist", short_name="WC Wavre"
    )
    for name in WAVRE_PLAYERS[1:]:
        club_services.member_add(wavre, name, start=SEASON_START)
    Membership.objects.filter(club=wavre).update(start=SEASON_START)
    for player in Player.objects.in_club(rcwhist).filter(display_name__in=WAVRE_FROM_RCWHIST):
        Membership.objects.create(club=wavre, player=player, start=SEASON_START)
    return wavre


def _whist_players(club: Club, *, but: Club | None = None) -> list[Player]:
    """The club's current members, in a fixed order (the demo draws from it), less those of
    ``but``: a player of two clubs is drawn once."""
    players = Player.objects.filter(
        Membership.objects.current_q("memberships"),
        memberships__club=club,
        memberships__status=Membership.Status.ACTIVE,
    )
    if but is not None:
        players = players.exclude(memberships__club=but)
    return list(players.distinct().order_by("pk"))


def _interclub_night(
    rng: random.Random,
    season: FederationSeason,
    host: Club,
    date: datetime.date,
    name: str,
    players: list[Player],
) -> Tournament:
    """A night ``host`` holds for the federation, through the services a scorer's pages call."""
    night = games_services.tournament_create(
        club=host,
        season=club_services.season_for_date(host, date),
        date=date,
        name=name,
        game="belgian_whist",
        point_table=games_services.point_table_for_preset("rcwhist", host),
        federation_season=season,
    )
    games_services.presence_set(night, players)
    count = {4: host.deals_per_poule_4, 5: host.deals_per_poule_5}
    for round_no in range(1, night.rounds + 1):
        scoring_services.round_draw(night, round_no, seed=rng.randrange(2**31))
        for poule in night.poules.filter(round=round_no).order_by("table"):
            seats = [str(number) for number in range(1, poule.seats.count() + 1)]
            scoring_services.deals_record(poule, random_sheet(rng, seats, count[len(seats)]))
    # The demo sends no e-mail: its players' addresses are nobody's.
    night = scoring_services.tournament_close(night, send_results=False)
    return scoring_services.tournament_publish(night)
