"""The chart of « Mes résultats »: at each published night of a season, a member's tournament
points so far against the club average so far (all the tournament points awarded so far ÷ the
players who have played so far; a player counts in the average from his first night on).

What the club's side of it needs — each published night's points awarded and the players first
seen at it — is the same for every member: counted once per season when its nights change
(``season_nights``, stored by ``scoring.services.season_stats`` as ``SeasonNights``), not by
every member's first view of the page, which then reads one stored row and his own nights."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Min, Sum

from games.models import Tournament, night_title

from ..fields import POINT_UNITS
from ..models import TournamentStanding


@dataclass(slots=True)
class ChartPoint:
    """One night of the season: the member's points so far and the club average so far,
    kept in whole units (``POINT_UNITS``): a season's hundreds of points become fractions
    only where a page asks for one (``mine``, ``average``), and floats for the drawing
    straight from the integers (``mine_float``, ``average_float``: the same correctly
    rounded values as through a ``Fraction``). Not frozen: a frozen dataclass sets each
    field through ``object.__setattr__``, seven times the cost of a season's hundreds."""

    date: datetime.date
    name: str
    played: bool
    mine_units: int
    awarded: int  # all the tournament points awarded so far, in whole units
    seen: int  # the players who have played so far

    @property
    def title(self) -> str:
        return night_title(self.name, self.date)

    @property
    def mine(self) -> Fraction:
        return Fraction(self.mine_units, POINT_UNITS)

    @property
    def average(self) -> Fraction:
        return Fraction(self.awarded, POINT_UNITS * self.seen)

    @property
    def mine_float(self) -> float:
        return self.mine_units / POINT_UNITS

    @property
    def average_float(self) -> float:
        return self.awarded / (POINT_UNITS * self.seen)


# A published night of the season: id, date, name, the tournament points awarded at it in
# whole units (None: no standings, not on the chart), the players first seen at it.
SeasonNight = tuple[int, datetime.date, str, int | None, int]


def published_nights(season: Any) -> Any:
    """The season's published nights in the chart's order."""
    return Tournament.objects.filter(season=season, status=Tournament.Status.PUBLISHED).order_by(
        "date", "name", "pk"
    )


def season_nights(season: Any) -> list[SeasonNight]:
    """Every published night of the season, in order, with what the club average adds up.
    Published nights only: the average holds everybody's points, which are the club's until
    it publishes them.

    Two queries of a row a night and a row a player, whatever the season's thousands of
    standings (neither sorts them): each night's points summed by the database in whole
    units (exact), and the date each player first played (none while no night has
    standings); a third only when a date holds several nights (which of them was his
    first)."""
    every = list(
        published_nights(season)
        .annotate(awarded=Sum("standings__points_units"))
        .values_list("pk", "date", "name", "awarded")
    )
    nights = [night for night in every if night[3] is not None]
    if not nights:
        return [(pk, date, name, awarded, 0) for pk, date, name, awarded in every]
    on_date: dict[datetime.date, list[int]] = defaultdict(list)
    for index, (_pk, date, *_rest) in enumerate(nights):
        on_date[date].append(index)
    published = TournamentStanding.objects.filter(
        tournament__season=season, tournament__status=Tournament.Status.PUBLISHED
    ).order_by()
    newcomers: Counter[int] = Counter()
    undecided: dict[int, datetime.date] = {}
    for player_id, date in (
        published.values("player_id")
        .annotate(first=Min("tournament__date"))
        .values_list("player_id", "first")
    ):
        if len(on_date[date]) == 1:
            newcomers[on_date[date][0]] += 1
        elif on_date[date]:
            undecided[player_id] = date
    if undecided:
        place = {pk: index for index, (pk, *_rest) in enumerate(nights)}
        first: dict[int, int] = {}
        for player_id, tournament_id, date in published.filter(
            player__in=undecided, tournament__date__in=set(undecided.values())
        ).values_list("player_id", "tournament_id", "tournament__date"):
            index = place.get(tournament_id)
            if date == undecided[player_id] and index is not None:
                first[player_id] = min(first.get(player_id, index), index)
        newcomers.update(first.values())
    seen = {pk: newcomers[index] for index, (pk, *_rest) in enumerate(nights)}
    return [(pk, date, name, awarded, seen.get(pk, 0)) for pk, date, name, awarded in every]


def stored_nights(
    stored: Sequence[Sequence[Any]] | None, nights: Iterable[tuple[int, datetime.date, str]]
) -> list[SeasonNight] | None:
    """The season's published nights (id, date, name, in the chart's order) with the figures
    stored for them ([id, awarded, newcomers] each), or None when what is stored is not
    these very nights in this order (a night published since without its season's row
    written again: the chart is then counted now, ``season_nights``)."""
    if stored is None:
        return None
    nights = list(nights)
    if [row[0] for row in stored] != [pk for pk, _date, _name in nights]:
        return None
    return [
        (pk, date, name, awarded, newcomers)
        for (pk, date, name), (_pk, awarded, newcomers) in zip(nights, stored, strict=True)
    ]


def chart_points(nights: Iterable[SeasonNight], mine: Mapping[int, int]) -> list[ChartPoint]:
    """The chart from the season's nights and the member's points at each (whole units, by
    night id; absent: not in ``mine``)."""
    chart = []
    awarded = points = seen = 0
    for pk, date, name, night_awarded, newcomers in nights:
        if night_awarded is None:
            continue
        seen += newcomers
        awarded += night_awarded
        night_mine = mine.get(pk)
        points += night_mine or 0
        chart.append(ChartPoint(date, name, night_mine is not None, points, awarded, seen))
    return chart
