"""The club's hall of fame (« Palmarès »), read from what the club has published: each season's
champion (its latest published ranking, an imported past season's included), and of its own
published nights (an inter-club night it hosted is its federation's) the most nights won, the
best night's score, and the rare contracts made (solo chelem, grande misère sur
table) with their nights.

Plain data, read in a few aggregate queries (``PALMARES_QUERIES``) from the stored standings,
rankings and night statistics — nothing is counted from the deals. The page caches it under
the club's ``pages_changed`` stamp, which every publication moves (``club.published``): it is
read once per publication, not once per visitor. Names are not put in here: the page names
each player as its reader may see him (``club.names``), so one copy serves every reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Q, QuerySet

from club.models import GAME_LABELS, Club, Player, Season
from games.labels import CONTRACT_LABELS
from games.models import Tournament
from scoring.engine.games import game_module
from scoring.models import PlayerNightStats, RankingSnapshot, TournamentStanding

# The contracts a club boasts of when one is made: the declarer alone takes every trick, or
# shows his hand on the table and still takes none (scoring-rules.md §1.1). Only the games
# whose point tables have them (Belgian whist) ever count one.
HONOURED_CONTRACTS = ("chelem", "grande_misere_table")
# How many players each list of the page names: a hall of fame, not the whole club.
LEADERS = 5
# The queries the palmarès costs when drawn (one more per further game the club plays).
PALMARES_QUERIES = 7


@dataclass(frozen=True)
class Champion:
    """A season's first-ranked players (several when tied), from its latest published ranking."""

    season: Season
    players: list[Player]
    points: Fraction
    imported: bool


@dataclass(frozen=True)
class NightsWon:
    player: Player
    won: int


@dataclass(frozen=True)
class BestNight:
    """A night's best score of the game (the highest game points; the lowest where lower is
    better, as in hearts)."""

    game: str
    player: Player
    points: int
    night: Tournament

    @property
    def label(self) -> str:
        return str(GAME_LABELS.get(self.game, self.game))


@dataclass(frozen=True)
class ContractMade:
    """A rare contract made by a player at a night (``times``: how often that night)."""

    contract: str
    player: Player
    night: Tournament
    times: int

    @property
    def label(self) -> str:
        # Translated when the page is drawn, in its reader's language (the data is cached).
        return str(CONTRACT_LABELS[self.contract])


@dataclass(frozen=True)
class Palmares:
    champions: list[Champion] = field(default_factory=list)
    nights_won: list[NightsWon] = field(default_factory=list)
    best_nights: list[BestNight] = field(default_factory=list)
    contracts_made: list[ContractMade] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.champions or self.nights_won or self.best_nights or self.contracts_made)


def _champions(club: Club) -> list[Champion]:
    snapshots = (
        RankingSnapshot.objects.filter(season__club=club)
        .latest_published()
        .select_related("season")
        .with_winners()
        .order_by("-season__start")
    )
    return [
        Champion(
            season=snapshot.season,
            players=[line.player for line in snapshot.winners],
            points=snapshot.winners[0].tournament_points,
            imported=snapshot.imported,
        )
        for snapshot in snapshots
        if snapshot.winners
    ]


def _own_published_nights(club: Club) -> QuerySet[Tournament]:
    """The club's own published nights: an inter-club night it hosted is its federation's
    honour (a visitor from another club may win it), not the club's."""
    return Tournament.objects.filter(
        club=club, status=Tournament.Status.PUBLISHED, federation_season__isnull=True
    )


def _published_standings(club: Club) -> QuerySet[TournamentStanding]:
    return TournamentStanding.objects.filter(tournament__in=_own_published_nights(club))


def _nights_won(club: Club) -> list[NightsWon]:
    """The players who won the most published nights (first place, tied or not)."""
    counts = (
        _published_standings(club)
        .filter(rank=1)
        .values("player")
        .annotate(won=Count("pk"))
        .order_by("-won", "player")[:LEADERS]
    )
    won = {row["player"]: row["won"] for row in counts}
    players = Player.objects.in_bulk(won)
    return sorted(
        (NightsWon(players[pk], count) for pk, count in won.items()),
        key=lambda line: (-line.won, line.player.display_name),
    )


def _best_nights(club: Club) -> list[BestNight]:
    """The best night's score of each game the club's published nights were played at."""
    games = _own_published_nights(club).order_by("game").values_list("game", flat=True).distinct()
    best = []
    for game in games:
        order = "game_points" if game_module(game).LOWER_IS_BETTER else "-game_points"
        standing = (
            _published_standings(club)
            .filter(tournament__game=game)
            .select_related("player", "tournament")
            .order_by(order, "tournament__date", "pk")
            .first()
        )
        if standing is not None:
            best.append(BestNight(game, standing.player, standing.game_points, standing.tournament))
    return best


def _contracts_made(club: Club) -> list[ContractMade]:
    """Every honoured contract made at a published night, newest first: from the night's stored
    statistics (``contracts``: per contract, [declared, made])."""
    made = Q()
    for contract in HONOURED_CONTRACTS:
        made |= Q(**{f"data__contracts__{contract}__1__gt": 0})
    lines = (
        PlayerNightStats.objects.filter(made, tournament__in=_own_published_nights(club))
        .select_related("player", "tournament")
        .order_by("-tournament__date", "tournament__pk", "player__display_name")
    )
    found = []
    for line in lines:
        contracts = line.data.get("contracts", {})
        for contract in HONOURED_CONTRACTS:
            times = (contracts.get(contract) or (0, 0))[1]
            if times:
                found.append(ContractMade(contract, line.player, line.tournament, times))
    return found


def club_palmares(club: Club) -> Palmares:
    """The club's hall of fame as its published results say it."""
    return Palmares(
        champions=_champions(club),
        nights_won=_nights_won(club),
        best_nights=_best_nights(club),
        contracts_made=_contracts_made(club),
    )
