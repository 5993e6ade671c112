"""The data the benchmarks measure, built in their throw-away database.

- ``generate``: a club's seasons of published nights, each poule with random game points
  (zero-sum, as at whist) that the engine ranks and turns into tournament points, so every
  stored number is one the site itself could have written; ``deals=True`` writes each poule's
  twelve-odd deals too, scored by the engine, for the pages that read them ("Mes résultats",
  the API's night). The public pages read only stored standings.
- ``scorer_club``, ``night``, ``sheet_posts``: tonight's night at a club and the deals a
  scorer's phone posts to its score sheets, round after round.
- ``night_documents``: club-night files, as the importer reads them.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Membership, Player, Season
from games import services
from games.dealforms import deal_post
from games.demo import FIRST_NAMES, LAST_NAMES, random_deal, random_night
from games.models import Deal, Poule, Seat, Tournament
from games.services import point_table_for_preset
from scoring import services as scoring
from scoring.engine.base import PouleScore
from scoring.engine.games.belgian_whist import counts_toward_poule
from scoring.engine.night import score_poule_deals
from scoring.engine.standings import poule_standings, scheme
from scoring.models import PouleStanding
from scoring.services import (
    ranking_publish,
    season_ranking_update,
    tournament_standings_update,
)

from .report import names

SEASONS = 10
TOURNAMENTS = 50
PLAYERS = 40
ROUNDS = 3
TABLE = 4


def _players(club: Club, count: int) -> list[Player]:
    players = Player.objects.bulk_create(
        Player(
            first_name=FIRST_NAMES[n % len(FIRST_NAMES)],
            last_name=LAST_NAMES[(n + n // len(FIRST_NAMES)) % len(LAST_NAMES)],
            display_name=(
                f"{FIRST_NAMES[n % len(FIRST_NAMES)]} "
                f"{LAST_NAMES[(n + n // len(FIRST_NAMES)) % len(LAST_NAMES)]}"
            ),
            # Some members chose their initials, as at the real club.
            public_name=Player.PublicName.INITIALS if n % 7 == 3 else Player.PublicName.FULL,
        )
        for n in range(count)
    )
    Membership.objects.bulk_create(
        Membership(club=club, player=player, start=datetime.date(2000, 1, 1)) for player in players
    )
    return players


def _seasons(club: Club, last_year: int, count: int) -> list[Season]:
    return Season.objects.bulk_create(
        Season(
            club=club,
            name=str(year),
            slug=str(year),
            start=datetime.date(year, 1, 1),
            end=datetime.date(year, 12, 31),
        )
        for year in range(last_year - count + 1, last_year + 1)
    )


def _random_score(rng: random.Random) -> PouleScore:
    """A poule's game points after twelve deals: zero-sum, a spread as at a club table."""
    points = [rng.randint(-40, 40) for _ in range(TABLE - 1)]
    points.append(-sum(points))
    return PouleScore(
        deal_points=(),
        dealers=(),
        game_points=tuple(points),
        net=tuple(Fraction(p) for p in points),
        counted_deals=12,
    )


def _dealt_score(
    rng: random.Random, point_table: Any, poule: Poule, deals: list[Deal]
) -> PouleScore:
    """A poule's twelve counted deals (and the passes between them), scored by the engine;
    the deals are appended to ``deals``, stored as the score sheet stores them."""
    seats = [str(n) for n in range(1, TABLE + 1)]
    raw: list[dict[str, Any]] = []
    counted = 0
    while counted < 12:
        raw.append(random_deal(rng, seats))
        counted += counts_toward_poule(raw[-1]["contract"])
    score = score_poule_deals(point_table, seats, raw)
    deals += [
        Deal(
            poule=poule,
            position=position,
            data=data,
            points=list(points),
            dealer=None if dealer is None else dealer + 1,
            counted=counts,
        )
        for position, (data, points, dealer, counts) in enumerate(
            zip(raw, score.deal_points, score.dealers, score.counted, strict=True), start=1
        )
    ]
    return score


def _tournaments(
    club: Club,
    seasons: list[Season],
    players: list[Player],
    rng: random.Random,
    nights: int,
    with_deals: bool,
) -> None:
    point_table = point_table_for_preset("rcwhist")
    engine_table = point_table.engine_table()
    points_scheme = scheme("rcwhist")
    # Weekly, as at the club; a season of more nights than weeks plays every day.
    step = min(7, 364 // (nights + 1))
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            club=club,
            season=season,
            # Thursday nights, weekly from the season's second week.
            date=season.start + datetime.timedelta(days=step * (n + 1)),
            name=f"Soirée {n + 1}",
            game="belgian_whist",
            point_table=point_table,
            tournament_points="rcwhist",
            rounds=ROUNDS,
            # Straight to published: closing through the service needs deals, and would
            # recompute the season ranking after every one of the 500 nights.
            status=Tournament.Status.PUBLISHED,
        )
        for season in seasons
        for n in range(nights)
    )
    tables = len(players) // TABLE
    poules = Poule.objects.bulk_create(
        Poule(tournament=tournament, round=round, table=table, counted_deals=12)
        for tournament in tournaments
        for round in range(1, ROUNDS + 1)
        for table in range(1, tables + 1)
    )
    seats, standings, deals = [], [], []
    for index in range(0, len(poules), tables):
        order = players[:]
        rng.shuffle(order)
        for table, poule in enumerate(poules[index : index + tables]):
            seated = order[table * TABLE : (table + 1) * TABLE]
            seats += [
                Seat(
                    poule=poule,
                    player=player,
                    number=number,
                    tournament_id=poule.tournament_id,
                    round=poule.round,
                )
                for number, player in enumerate(seated, start=1)
            ]
            score = (
                _dealt_score(rng, engine_table, poule, deals) if with_deals else _random_score(rng)
            )
            standings += [
                PouleStanding(
                    poule=poule,
                    player=seated[line.seat],
                    seat=line.seat + 1,
                    rank=line.rank,
                    tied=line.tied,
                    game_points=line.game_points,
                    tournament_points=line.tournament_points,
                )
                for line in poule_standings(score, points_scheme)
            ]
    Seat.objects.bulk_create(seats, batch_size=5000)
    PouleStanding.objects.bulk_create(standings, batch_size=5000)
    Deal.objects.bulk_create(deals, batch_size=5000)
    for tournament in tournaments:
        tournament_standings_update(tournament)
    if with_deals:
        # What closing each night stores with it: the members' pages read these lines.
        scoring.night_statistics_store(tournaments)


def _rankings(seasons: list[Season]) -> None:
    """Each season published twice, at mid-season and at its end, as the club does; the live
    ranking stays beside them."""
    for season in seasons:
        later = Tournament.objects.filter(season=season, date__gt=season.start.replace(month=7))
        later.update(status=Tournament.Status.PLANNED)
        ranking_publish(season)
        later.update(status=Tournament.Status.PUBLISHED)
        ranking_publish(season)
        season_ranking_update(season)


def generate(
    seed: int,
    report: Callable[[str], None],
    *,
    seasons: int = SEASONS,
    nights: int = TOURNAMENTS,
    players: int = PLAYERS,
    deals: bool = False,
    cote: bool = False,
    slug: str = "banc-classements",
) -> tuple[Club, list[Season], Player]:
    """A club of ``players`` (a multiple of four) who all play every one of the ``nights`` of
    each of its ``seasons`` (the last one this year); every night published, every season's
    ranking published twice; ``cote`` (with ``deals``): every night's cote written. Returns
    the club, its seasons newest first and its first player."""
    rng = random.Random(seed)
    start = time.perf_counter()
    count = Tournament.objects.count()
    with transaction.atomic():
        name = "Banc d'essai des classements"
        club = Club.objects.create(
            name=name if slug == "banc-classements" else f"{name} ({slug})", slug=slug
        )
        members = _players(club, players)
        club_seasons = _seasons(club, timezone.localdate().year, seasons)
        _tournaments(club, club_seasons, members, rng, nights, deals)
    _rankings(club_seasons)
    if deals and cote:
        # Each night's cote, as closing it writes it: the statistics page tells its history.
        scoring.ratings_rebuild(club)
    report(
        f"generated {seasons} season{'s' if seasons > 1 else ''} × {nights} nights × "
        f"{players} players "
        f"({Tournament.objects.count() - count} nights, "
        f"{Seat.objects.filter(tournament__club=club).count()} seats, "
        f"{PouleStanding.objects.filter(poule__tournament__club=club).count()} poule standings"
        f"{', with their deals' if deals else ''}) in {time.perf_counter() - start:.1f} s"
    )
    # Seasons are ordered newest first.
    return club, list(club.seasons.all()), members[0]


# --------------------------------------------------------------------------------------------
# Tonight's night, played through the score sheets


def scorer_club(players: int = PLAYERS, slug: str = "banc-essai") -> tuple[Club, Any, list[Player]]:
    """A club of ``players`` members; the first one's account is the scorer's."""
    name = "Banc d'essai"
    club = Club.objects.create(name=name if slug == "banc-essai" else f"{name} ({slug})", slug=slug)
    username = "marqueur-banc" if slug == "banc-essai" else f"marqueur-{slug}"
    user = get_user_model().objects.create_user(username, password="x")
    members = [Player.objects.create(display_name=f"Joueur {n:02d}") for n in range(players)]
    for player in members:
        Membership.objects.create(club=club, player=player, start=datetime.date(2026, 1, 1))
    Player.objects.filter(pk=members[0].pk).update(user=user)
    Membership.objects.filter(player=members[0]).update(role=Membership.Role.SCORER)
    return club, user, members


def night(club: Club, players: list[Player], rounds: int = ROUNDS) -> Tournament:
    """Tonight at the club, every member present, no round drawn yet."""
    tournament = services.tournament_create(
        club=club,
        season=club_services.season_for_date(club, datetime.date(2026, 11, 19)),
        date=datetime.date(2026, 11, 19),
        game="belgian_whist",
        point_table=services.point_table_for_preset("rcwhist"),
        rounds=rounds,
    )
    services.presence_set(tournament, players)
    return tournament


def sheet_posts(
    tournament: Tournament, rng: random.Random, seed: int
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The night played table by table: each round drawn, then every deal of each poule as
    the score-sheet address, the deal, and what the scorer's phone posts there, until each
    poule has its counted deals. Each deal must be recorded before the next is asked for (a
    round is drawn once the previous one is complete)."""
    for round in range(1, tournament.rounds + 1):
        scoring.round_draw(tournament, round, seed=seed + round)
        for poule in tournament.poules.filter(round=round).order_by("table"):
            path = reverse(
                "games:sheet",
                kwargs={"slug": tournament.club.slug, "pk": tournament.pk, "poule_pk": poule.pk},
            )
            seat_names = [str(n) for n in range(1, poule.seats.count() + 1)]
            counted = 0
            while counted < tournament.deals_per_poule(len(seat_names)):
                deal = random_deal(rng, seat_names)
                yield path, deal, deal_post(poule, deal)
                counted += counts_toward_poule(deal["contract"])


# --------------------------------------------------------------------------------------------
# Club-night files


def last_year() -> int:
    return timezone.localdate().year - 1


def night_documents(nights: int, players: int, rng: random.Random) -> list[dict[str, Any]]:
    """``nights`` club nights as club-night files, 50 a season (weekly), the last season last
    year; everybody present."""
    first_year = last_year() - (nights - 1) // 50
    docs = []
    for n in range(nights):
        year = first_year + n // 50
        date = datetime.date(year, 1, 1) + datetime.timedelta(days=7 * (n % 50 + 1))
        docs.append(
            random_night(
                rng,
                club=f"Banc d'essai de l'import ({nights})",
                season=str(year),
                date=date,
                members=names(players),
                present=players,
            )
        )
    return docs
