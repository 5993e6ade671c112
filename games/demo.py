"""Realistic Belgian whist club nights, generated as club-night/1 documents.

Used by the demo club and by benchmarks. The mix of contracts follows what a club night sees:
mostly emballages and solos, a few passes and misères, a rare abondance or chelem.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from typing import Any

from club.models import Club, Membership, Player
from scoring.engine.base import next_dealer
from scoring.engine.games import belgian_whist, mort

from . import calendar
from .draw import table_sizes

# The demo club's 28 members (first names A … Z, then two more).
FIRST_NAMES = [
    "Anne", "Bruno", "Chloé", "Didier", "Eva", "François", "Geneviève", "Henri", "Isabelle",
    "Jacques", "Karine", "Louis", "Marie", "Nicolas", "Odile", "Pierre", "Quentin", "Rose",
    "Sophie", "Thierry", "Ursule", "Vincent", "Wendy", "Xavier", "Yvonne", "Zoé", "Albert",
    "Béatrice",
]  # fmt: skip
LAST_NAMES = [
    "Dupont", "Lemaire", "Martin", "Peeters", "Janssens", "Dubois", "Maes", "Jacobs", "Mertens",
    "Willems", "Claes", "Goossens", "Wouters", "De Smet", "Lambert", "Dumont", "Leclercq",
    "Renard", "Simon", "Laurent", "Hermans", "Michel", "Lejeune", "Collard", "Denis", "Gilson",
    "Hubert", "Masson",
]  # fmt: skip

# (contract, bid or None, weight) — weights per 1 000 deals.
CONTRACT_MIX = [
    ("pass", None, 70),
    ("emballage", 8, 330),
    ("emballage", 9, 110),
    ("emballage", 10, 35),
    ("emballage", 11, 10),
    ("solo", 6, 150),
    ("solo", 7, 70),
    ("solo", 8, 25),
    ("petite_misere", None, 60),
    ("solo_sur_misere", 8, 8),
    ("abondance", 9, 35),
    ("trou", 8, 25),
    ("trou", 9, 25),
    ("grande_misere", None, 30),
    ("grande_misere_table", None, 5),
    ("petit_chelem", 11, 3),
    ("chelem", 13, 2),
]
PAIR = {"emballage", "trou"}
EACH = {"petite_misere", "grande_misere"}


def random_tricks(rng: random.Random, needed: int, top: int = 13) -> int:
    """Made about two times in three; overtricks and undertricks rarely more than two."""
    if rng.random() < 0.66:
        return min(top, needed + rng.choice((0, 0, 0, 1, 1, 2, 3)))
    return max(0, needed - rng.choice((1, 1, 1, 2, 2, 3)))


def random_deal(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """One deal among the four active ``players``."""
    contract, bid, _ = rng.choices(CONTRACT_MIX, weights=[w for *_, w in CONTRACT_MIX])[0]
    if contract == "pass":
        return {"contract": "pass"}
    if contract in EACH:
        declarers = rng.sample(players, rng.choice((1, 1, 1, 2)))
        top = 12 if contract == "petite_misere" else 13
        tricks = {name: (0 if rng.random() < 0.7 else rng.randint(1, 3)) for name in declarers}
        while sum(tricks.values()) > top:
            tricks[declarers[0]] -= 1
        return {"contract": contract, "declarers": declarers, "tricks": tricks}
    if contract == "grande_misere_table":
        return {
            "contract": contract,
            "declarers": [rng.choice(players)],
            "tricks": 0 if rng.random() < 0.7 else 1,
        }
    declarers = rng.sample(players, 2 if contract in PAIR else 1)
    deal: dict[str, Any] = {
        "contract": contract,
        "bid": bid,
        "declarers": declarers,
        "tricks": random_tricks(rng, bid),
    }
    if rng.random() < 0.01:
        deal["penalties"] = [{"player": rng.choice(players), "points": 2}]
    return deal


def random_sheet(rng: random.Random, seats: list[str], count: int) -> list[dict[str, Any]]:
    """A belgian whist table's deals until ``count`` of them count (passes do not), each
    among the four players the deal's dealer leaves active. ``seats`` name the players in
    seat order: by name in a club-night file, by seat number ("1" …) on the site's sheet."""
    size = len(seats)
    deals: list[dict[str, Any]] = []
    dealers: list[int | None] = []
    counted: list[bool] = []
    while sum(counted) < count:
        dealer = next_dealer(dealers, counted, size)
        sits_out = mort(belgian_whist.GAME, size, dealer)
        deal = random_deal(rng, [s for i, s in enumerate(seats) if i != sits_out])
        deals.append(deal)
        dealers.append(dealer)
        counted.append(belgian_whist.counts_toward_poule(deal["contract"]))
    return deals


def random_night(
    rng: random.Random,
    *,
    club: str,
    season: str,
    date: datetime.date,
    members: list[str],
    present: int,
    rounds: int = 3,
    deals_per_poule: dict[int, int] | None = None,
) -> dict[str, Any]:
    deals_per_poule = deals_per_poule or {4: 12, 5: 15}
    players = rng.sample(members, present)
    poules = []
    for round_no, table_no, seats in _random_tables(rng, players, rounds):
        deals = random_sheet(rng, seats, deals_per_poule[len(seats)])
        poules.append({"round": round_no, "table": table_no, "seats": seats, "deals": deals})
    # Unnamed, as most club nights are: the site calls it "Soirée du 9 mai 2024" in the
    # reader's language (``night_title``); a stored name would stay French everywhere.
    return _night(club, season, date, "", "belgian_whist", "rcwhist", players, poules)


def _random_tables(
    rng: random.Random, players: list[str], rounds: int
) -> Iterator[tuple[int, int, list[str]]]:
    """Each round's tables, drawn at random: (round, table, the players in seat order). The
    demo seats its tables of 5 first."""
    for round_no in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        start = 0
        for table_no, size in enumerate(sorted(table_sizes(len(players)), reverse=True), 1):
            yield round_no, table_no, order[start : start + size]
            start += size


def _night(
    club: str,
    season: str,
    date: datetime.date,
    name: str,
    game: str,
    rules: str,
    players: list[str],
    poules: list[dict[str, Any]],
) -> dict[str, Any]:
    """The club-night file of a generated night (night-format.md)."""
    return {
        "format": "club-night/1",
        "club": club,
        "season": season,
        "date": date.isoformat(),
        # A night without a name has none in its file (night-format.md: an empty one is refused).
        **({"name": name} if name else {}),
        "game": game,
        "rules": rules,
        "tournament_points": "rcwhist",
        "players": players,
        "poules": poules,
    }


MONTHS = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
]


def random_hearts_deal(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A hearts deal: the 13 hearts shared out among the table, the queen of spades to one."""
    hearts = dict.fromkeys(players, 0)
    for _heart in range(13):
        hearts[rng.choice(players)] += 1
    return {"hearts": hearts, "queen_of_spades": rng.choice(players)}


def random_hearts_night(
    rng: random.Random,
    *,
    club: str,
    season: str,
    date: datetime.date,
    members: list[str],
    present: int,
    rounds: int = 2,
    deals_per_poule: int = 8,
) -> dict[str, Any]:
    """A hearts club night (the second demo club's game): tables of 4 and 5, every player
    for himself, a few deals a table."""
    players = rng.sample(members, present)
    poules = [
        {
            "round": round_no,
            "table": table_no,
            "seats": seats,
            "deals": [random_hearts_deal(rng, seats) for _deal in range(deals_per_poule)],
        }
        for round_no, table_no, seats in _random_tables(rng, players, rounds)
    ]
    name = f"Soirée des cœurs du {date.day} {MONTHS[date.month - 1]} {date.year}"
    return _night(club, season, date, name, "hearts", "coeurs", players, poules)


def demo_calendar(club: Club, rng: random.Random, today: datetime.date) -> int:
    """The demo club's coming Fridays on its calendar (eight of them, at 20:00), the next two
    with a few members' replies: what a new user of the calendar sees. Returns how many."""
    first = today + datetime.timedelta(days=(4 - today.weekday()) % 7 or 7)
    # No number of places: the club never set one, and a cap the size of the club reads as one.
    series = calendar.series_plan(
        club,
        first=first,
        last=first + datetime.timedelta(weeks=7),
        weekday=4,
        plan=calendar.NightPlan(place=club.contact_address or "Salle Saint-Roch"),
    ).series
    # Today's members answer (the players of the club's imported past who have left do not).
    current = (
        Membership.objects.current().filter(club=club).exclude(status=Membership.Status.FORMER)
    )
    members = list(Player.objects.filter(pk__in=current.values("player")).order_by("pk"))
    for night in series.nights.order_by("date")[:2]:
        for player in rng.sample(members, min(len(members), 19)):
            answer = rng.choices(("yes", "maybe", "no"), weights=(14, 3, 2))[0]
            calendar.reply_set(night, player, answer)
    return series.nights.count()


# The two seasons the demo club published before it came to the site (imported rankings): its
# old site wrote the names its own way, and two players of those years have left since.
PAST_SEASONS = (2022, 2023)
FORMER_PLAYERS = ["Raymond Delvaux", "Josiane Piron"]


def past_ranking(rng: random.Random, year: int, members: list[str]) -> list[list[str]]:
    """A past season's published ranking as its table: rank, name (as the old site wrote
    it: "DUPONT Anne", "A. Dupont"), tournament points, nights played."""
    players = rng.sample(members, 18) + FORMER_PLAYERS
    scores = sorted(((rng.randint(20, 160), name) for name in players), reverse=True)
    rows = [["Rang", "Joueur", "Points", "Soirées"]]
    rank = 0
    for index, (points, name) in enumerate(scores):
        if index == 0 or points != scores[index - 1][0]:
            rank = index + 1
        first, _sep, last = name.partition(" ")
        written = [name, f"{last.upper()} {first}", f"{first[0]}. {last}"][index % 3]
        rows.append([str(rank), written, str(points), str(rng.randint(4, 10))])
    return rows
