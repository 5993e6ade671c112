"""What a federation's public pages show: its clubs, its calendar of inter-club nights, its
ranking with each player's clubs, its archive of seasons, and a player's federation lines.

Plain data, no request. Only what the host clubs have published is shown of a night that has
been played: an unpublished night's results are its club's, and the federation's ranking counts
only published nights already. A fixed number of queries whatever the number of clubs, nights
or players.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Max, Q, QuerySet
from django.urls import reverse

from club.models import Club, Federation, FederationSeason, Membership, Player
from club.name_search import name_holds, typed_words
from club.names import NameReader, searched_by_name
from infra.addresses import address_parts
from scoring.models import FederationRanking, FederationRankingLine

from ..models import Tournament

# How many lines of the current ranking the federation's page shows before its link to the
# whole ranking.
TOP_LINES = 10

LINE_FIELDS = (
    "ranking_id",
    "player_id",
    "rank",
    "tied",
    "position",
    "tournament_points",
    "game_points",
    "tournaments_played",
    "tournaments_counted",
    "tournaments_won",
    "clubs_played",
    *(f"player__{name}" for name in Player.PUBLIC_NAME_FIELDS),
)


@dataclass(frozen=True)
class FederationOverview:
    federation: Federation
    clubs: list[Club]
    seasons: list[FederationSeason]
    season: FederationSeason | None
    played: list[Tournament] = field(default_factory=list)
    coming: list[Tournament] = field(default_factory=list)
    ranking: FederationRanking | None = None
    top: list[FederationRankingLine] = field(default_factory=list)


def federation_seasons(federation: Federation) -> list[FederationSeason]:
    """The federation's seasons, newest first, each with its ranking if computed (one query)."""
    return list(federation.seasons.select_related("ranking").order_by("-start", "name"))


def ranking_of(season: FederationSeason) -> FederationRanking | None:
    """The season's ranking, read with the season (``federation_seasons``)."""
    try:
        return season.ranking
    except FederationRanking.DoesNotExist:
        return None


def current_season(
    seasons: list[FederationSeason], today: datetime.date
) -> FederationSeason | None:
    """The season under way, else the newest one."""
    return next((s for s in seasons if s.start <= today <= s.end), seasons[0] if seasons else None)


def _players_clubs(federation: Federation, players: list[int]) -> dict[int, list[Club]]:
    """Each player's current clubs within the federation (one query): where the ranking says
    he plays, and where his page is."""
    clubs: dict[int, list[Club]] = {}
    memberships = (
        Membership.objects.current()
        .filter(player__in=players, club__federations=federation)
        .exclude(status=Membership.Status.GUEST)
        .select_related("club")
        .only("player_id", "club__name", "club__slug", "club__short_name")
        .order_by("club__name")
    )
    # A ranking lists thousands of players: each club's address is reversed once, not a row.
    addresses: dict[str, str] = {}
    for membership in memberships:
        club = membership.club
        if club.slug not in addresses:
            addresses[club.slug] = reverse("club-detail", args=[club.slug])
        club.url = addresses[club.slug]
        clubs.setdefault(membership.player_id, []).append(club)
    return clubs


def _player_pages(slugs: set[str]) -> dict[str, tuple[str, str]]:
    """Each club's player-page address split around the player's number (one reverse a
    club)."""
    return {slug: address_parts("player", slug) for slug in slugs}


def ranked_players(
    federation: Federation, ranking: FederationRanking, *, limit: int | None = None
) -> list[FederationRankingLine]:
    """The ranking's lines in order, each with its player's clubs in the federation as
    ``clubs`` and ``home`` (the first of them, where his page is; none when he has left them
    all): two queries, only the public name's fields of a player read. With ``limit``, its
    top: ranked players only. The club's ranking table draws them (``club/ranking_table``)."""
    lines = FederationRankingLine.objects.filter(ranking=ranking).select_related("player")
    lines = lines.only(*LINE_FIELDS).order_by("position")
    found = list(lines.filter(rank__isnull=False)[:limit] if limit else lines)
    clubs = _players_clubs(federation, [line.player_id for line in found])
    pages = _player_pages({c[0].slug for c in clubs.values() if c})
    for line in found:
        line.clubs = clubs.get(line.player_id, [])
        line.home = line.clubs[0] if line.clubs else None
        if line.home is not None:
            before, after = pages[line.home.slug]
            line.url = f"{before}{line.player_id}{after}"
    return found


# How many lines a page of a federation's ranking shows: a federation ranks thousands.
PAGE_LINES = 100

# A page's lines read as plain rows: the same fields, without the ranking.
ROW_FIELDS = tuple(name for name in LINE_FIELDS if name != "ranking_id")


@dataclass(frozen=True)
class RankingPage:
    """One page of a federation season's ranking: its lines as plain rows (``name``,
    ``url``, ``clubs`` as (short name, address) pairs, ``mine``), which page of how many, how
    many lines the ranking (or the search) holds, and the reader's own line (``mine``: its
    rank, position and page) when he is ranked."""

    lines: list[dict[str, object]]
    number: int
    pages: int
    total: int
    typed: str = ""
    mine: dict[str, object] | None = None

    @property
    def ranked(self) -> list[dict[str, object]]:
        return [line for line in self.lines if line["rank"] is not None]

    @property
    def apart(self) -> list[dict[str, object]]:
        return [line for line in self.lines if line["rank"] is None]


def _page_of(position: int) -> int:
    return (position - 1) // PAGE_LINES + 1


def _clubs_rows(
    federation: Federation, players: object
) -> dict[int, list[tuple[str, str, str, str]]]:
    """Each player's current clubs in the federation as (short name, address), by club name
    (one query of plain rows, one reverse a club)."""
    rows = (
        Membership.objects.current()
        .filter(player__in=players, club__federations=federation)
        .exclude(status=Membership.Status.GUEST)
        .order_by("club__name")
        .values_list("player_id", "club__name", "club__short_name", "club__slug")
    )
    addresses: dict[str, str] = {}
    clubs: dict[int, list[tuple[str, str, str]]] = {}
    for player, name, short_name, slug in rows:
        if slug not in addresses:
            addresses[slug] = reverse("club-detail", args=[slug])
        clubs.setdefault(player, []).append((short_name or name, addresses[slug], slug, name))
    return clubs


def _rows(
    found: list[dict[str, object]],
    clubs: dict[int, list[tuple[str, str, str, str]]],
    namer: Callable[[Player], str],
    me: int | None,
) -> list[dict[str, object]]:
    """The lines as the page writes them: each player's shown name, his page's address (at
    the first of his clubs, one reverse a club), his clubs."""
    pages = _player_pages({c[0][2] for c in clubs.values() if c})
    for line in found:
        player = Player(
            pk=line["player_id"],
            **{name: line.pop(f"player__{name}") for name in Player.PUBLIC_NAME_FIELDS},
        )
        line["name"] = namer(player)
        own = clubs.get(line["player_id"], [])
        line["clubs"] = [(short, url) for short, url, _slug, _name in own]
        line["club_names"] = " ".join(f"{name} {short}" for short, _u, _s, name in own)
        line["url"] = None
        if own:
            before, after = pages[own[0][2]]
            line["url"] = f"{before}{line['player_id']}{after}"
        line["mine"] = line["player_id"] == me
    return found


def ranking_page(
    federation: Federation,
    ranking: FederationRanking,
    reader: NameReader,
    *,
    number: int = 1,
    typed: str = "",
    user: object = None,
) -> RankingPage:
    """One page of the ranking (``PAGE_LINES`` lines, in order; the last page when
    ``number`` is past it), or the lines whose player's shown name or clubs hold each typed
    word (``club.name_search``: whatever the case and the accents), and the line of ``user``
    (an account: the reader) when he is ranked.
    Four queries at most on a page, whatever the ranking's length; a search reads the lines
    its words may match and keeps those that do."""
    lines = FederationRankingLine.objects.filter(ranking=ranking).order_by("position")
    mine = player = None
    if user is not None and user.is_authenticated:
        mine = lines.filter(player__user=user).values("player_id", "rank", "position").first()
        if mine is not None:
            mine["page"] = _page_of(mine["position"])
            player = mine["player_id"]
    words = typed_words(typed)
    if words:
        found = _searched(federation, lines, reader, words, player)
        total = len(found)
        pages = max(1, math.ceil(total / PAGE_LINES))
        number = min(max(number, 1), pages)
        shown = found[(number - 1) * PAGE_LINES : number * PAGE_LINES]
        return RankingPage(shown, number, pages, total, typed, mine)
    total = ranking.lines.count()
    pages = max(1, math.ceil(total / PAGE_LINES))
    number = min(max(number, 1), pages)
    start = (number - 1) * PAGE_LINES
    found = list(lines.values(*ROW_FIELDS)[start : start + PAGE_LINES])
    clubs = _clubs_rows(federation, [line["player_id"] for line in found])
    return RankingPage(_rows(found, clubs, reader.name, player), number, pages, total, typed, mine)


def _searched(
    federation: Federation,
    lines: QuerySet[FederationRankingLine],
    reader: NameReader,
    words: list[str],
    me: int | None,
) -> list[dict[str, object]]:
    """The lines whose shown name or clubs hold every word. The database keeps the lines a
    word may match (the player's name as ``reader`` may search it, one of his clubs':
    ``club.names.searched_by_name``); each is then checked as it is shown (``name_holds``)."""
    federation_clubs = federation.clubs.values_list("pk", "name", "short_name")
    clubs_of = {pk: f"{name} {short}" for pk, name, short in federation_clubs}
    for word in words:
        matched = [pk for pk, text in clubs_of.items() if name_holds(text, [word])]
        members = (
            Membership.objects.current()
            .filter(club__in=matched)
            .exclude(status=Membership.Status.GUEST)
        )
        lines = lines.filter(
            searched_by_name(reader, [word], through="player")
            | Q(player__in=members.values("player"))
        )
    found = list(lines.values(*ROW_FIELDS))
    clubs = _clubs_rows(federation, [line["player_id"] for line in found])
    rows = _rows(found, clubs, reader.name, me)
    return [row for row in rows if name_holds(f"{row['name']} {row['club_names']}", words)]


def interclub_nights(season: FederationSeason, today: datetime.date) -> QuerySet[Tournament]:
    """The season's inter-club nights the public may see: those their host club has published,
    and those still to come (planned, not played yet). A night played but not published shows
    nothing, not even that it was held."""
    return (
        Tournament.objects.filter(federation_season=season)
        .filter(
            Q(status=Tournament.Status.PUBLISHED)
            | Q(status=Tournament.Status.PLANNED, date__gte=today)
        )
        .select_related("club")
        .only("date", "name", "status", "club__name", "club__slug", "club__short_name")
        .order_by("date", "name")
    )


def federation_overview(federation: Federation, today: datetime.date) -> FederationOverview:
    """The federation's page: its clubs, the current season's calendar and the top of its
    ranking (six queries at most)."""
    seasons = federation_seasons(federation)
    season = current_season(seasons, today)
    clubs = list(federation.clubs.only("name", "slug", "short_name").order_by("name"))
    if season is None:
        return FederationOverview(federation, clubs, seasons, None)
    nights = list(interclub_nights(season, today))
    ranking = ranking_of(season)
    return FederationOverview(
        federation,
        clubs,
        seasons,
        season,
        played=[n for n in reversed(nights) if n.status == Tournament.Status.PUBLISHED],
        coming=[n for n in nights if n.status == Tournament.Status.PLANNED],
        ranking=ranking,
        top=ranked_players(federation, ranking, limit=TOP_LINES) if ranking else [],
    )


@dataclass(frozen=True)
class ArchivedSeason:
    season: FederationSeason
    ranking: FederationRanking | None
    winners: list[Player]


def federation_archive(federation: Federation) -> list[ArchivedSeason]:
    """Every season of the federation, newest first, with its winners (two queries)."""
    seasons = federation_seasons(federation)
    winners: dict[int, list[Player]] = {}
    firsts = (
        FederationRankingLine.objects.filter(ranking__season__federation=federation, rank=1)
        .select_related("player")
        .only("ranking_id", *(f"player__{name}" for name in Player.PUBLIC_NAME_FIELDS))
        .order_by("position")
    )
    for line in firsts:
        winners.setdefault(line.ranking_id, []).append(line.player)
    archive = []
    for season in seasons:
        ranking = ranking_of(season)
        archive.append(
            ArchivedSeason(season, ranking, winners.get(ranking.pk, []) if ranking else [])
        )
    return archive


def player_federation_lines(player: Player) -> list[FederationRankingLine]:
    """A player's line in each federation season's ranking, newest first (one query)."""
    return list(
        FederationRankingLine.objects.filter(player=player)
        .select_related("ranking__season__federation")
        .order_by("-ranking__season__start", "ranking__season__federation__name")
    )


def player_clubs(player: Player) -> list[Club]:
    """The clubs a player belongs to now, each with ``federations_changed``: when what its
    federations show last changed (one query; the player's page is cached from both). A
    guest's visit is no membership."""
    memberships = (
        Membership.objects.current()
        .filter(player=player)
        .exclude(status=Membership.Status.GUEST)
        .select_related("club")
        .only("club__name", "club__slug", "club__short_name")
        .annotate(federations_changed=Max("club__federations__pages_changed"))
        .order_by("club__name")
    )
    clubs = []
    for membership in memberships:
        membership.club.federations_changed = membership.federations_changed
        clubs.append(membership.club)
    return clubs


@dataclass(frozen=True)
class FederationLink:
    federation: Federation
    season: FederationSeason | None


def federation_links(today: datetime.date) -> list[FederationLink]:
    """Every federation with its current season, for the home page (two queries; one when
    there is none)."""
    federations = Federation.objects.only("name", "slug", "short_name").prefetch_related("seasons")
    return [
        # Seasons come newest first (``FederationSeason.Meta.ordering``).
        FederationLink(f, current_season(list(f.seasons.all()), today))
        for f in federations
    ]
