"""The season ranking summed by the database is the engine's ranking of the same nights: all
nights or the best N, with ties in tournament points and in game points, and a minimum.
Tied players are listed by name."""

import datetime
import random
import threading
import time
from fractions import Fraction

import pytest
from django.db import connection, connections, transaction

from club.models import Club, Player
from games.models import Tournament
from scoring.engine.ranking import RankingRules, TournamentEntry, season_ranking
from scoring.models import TournamentStanding
from scoring.services import season_ranking_update, season_totals
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db

# Tournament points as a night gives them: places, and places shared by two or three.
POINTS = [Fraction(5), Fraction(3), Fraction(1), Fraction(4), Fraction(2), Fraction(4, 3)]


def season_of_random_nights(club, season, point_table, rng, nights=9, players=6):
    members = [PlayerFactory(club=club) for _ in range(players)]
    entries = []
    for night in range(nights):
        tournament = TournamentFactory(
            club=club,
            season=season,
            point_table=point_table,
            date=season.start + datetime.timedelta(days=night),
        )
        present = rng.sample(members, rng.randint(2, players))
        for rank, player in enumerate(present, start=1):
            # Few distinct values, so that both kinds of tie happen often.
            points, game = rng.choice(POINTS), rng.choice([-6, 0, 4, 4, 10])
            TournamentStanding.objects.create(
                tournament=tournament,
                player=player,
                rank=rank,
                tournament_points=points,
                game_points=game,
                poules_played=3,
                poules_won=0,
            )
            entries.append(TournamentEntry(player.pk, tournament.pk, points, game, rank))
    # Closed nights count; one planned night more, whose results the ranking must leave out.
    Tournament.objects.filter(season=season).update(status=Tournament.Status.CLOSED)
    planned = TournamentFactory(club=club, season=season, point_table=point_table)
    TournamentStanding.objects.create(
        tournament=planned,
        player=members[0],
        rank=1,
        tournament_points=5,
        game_points=99,
        poules_played=3,
        poules_won=3,
    )
    return entries


METRICS = {"tournament_points": 3, "game_points": 4, "tournaments_won": 7}


def lines_of(lines, precedence, names):
    """Each line as a tuple, listed as the site lists them: by rank, unranked players by the
    ranking's metrics, and players alike in both by name."""
    rows = [
        (
            getattr(line, "player_id", None) or line.player,
            line.rank,
            line.tied,
            line.tournament_points,
            line.game_points,
            line.tournaments_played,
            line.tournaments_counted,
            line.tournaments_won,
        )
        for line in lines
    ]
    return rows, sorted(
        rows,
        key=lambda row: (
            row[1] is None,
            row[1] or 0,
            tuple(-row[METRICS[metric]] for metric in precedence),
            names[row[0]],
        ),
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    ("best_n", "minimum", "precedence"),
    [
        (None, 0, ["tournament_points", "game_points"]),
        (4, 0, ["tournament_points", "game_points"]),
        (3, 5, ["tournament_points", "tournaments_won", "game_points"]),
        (1, 2, ["game_points", "tournament_points"]),
    ],
)
def test_the_stored_ranking_is_the_engines_ranking(
    club, season, point_table, seed, best_n, minimum, precedence
):
    entries = season_of_random_nights(club, season, point_table, random.Random(seed))
    season.ranking_best_n, season.ranking_min_tournaments = best_n, minimum
    season.ranking_precedence = precedence
    season.save()
    rules = RankingRules(best_n=best_n, min_tournaments=minimum, precedence=tuple(precedence))
    # By the club's name order, as the site lists players alike in all else.
    names = dict(Player.objects.values_list("pk", "sort_key"))

    snapshot = season_ranking_update(season)

    stored, stored_listed = lines_of(snapshot.lines.order_by("position"), precedence, names)
    _engine, engine_listed = lines_of(season_ranking(entries, rules), precedence, names)
    assert stored_listed == engine_listed
    assert stored == stored_listed
    assert snapshot.tournaments == 9


def a_night(club, season, point_table, day, lines):
    tournament = TournamentFactory(
        club=club,
        season=season,
        point_table=point_table,
        date=season.start + datetime.timedelta(days=day),
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CLOSED)
    for rank, (player, points, game) in enumerate(lines, start=1):
        TournamentStanding.objects.create(
            tournament=tournament,
            player=player,
            rank=rank,
            tournament_points=points,
            game_points=game,
            poules_played=3,
            poules_won=0,
        )


def test_names_are_read_only_for_tied_players_and_order_them(
    club, season, point_table, django_assert_num_queries
):
    zoe, anne, marc = (
        PlayerFactory(club=club, display_name=name) for name in ("Zoé", "Anne", "Marc")
    )
    a_night(club, season, point_table, 0, [(zoe, 5, 10), (marc, 3, 4), (anne, 1, -14)])
    rules = season.ranking_rules()
    # Nobody tied: the sums alone, one statement.
    with django_assert_num_queries(1):
        totals = season_totals(season, rules)
    assert set(totals) == {zoe.pk, anne.pk, marc.pk}

    # Anne and Zoé end equal in tournament and game points: the engine is given them by name.
    a_night(club, season, point_table, 1, [(anne, 5, 24), (zoe, 1, 0), (marc, 0, -24)])
    with django_assert_num_queries(2):
        totals = season_totals(season, rules)
    order = [player for player in totals if player != marc.pk]
    assert order == [anne.pk, zoe.pk]
    assert totals[anne.pk].tournament_points == totals[zoe.pk].tournament_points == 6


@pytest.mark.django_db(transaction=True)
def test_the_ranking_and_the_cote_after_a_close_never_deadlock(club, season, point_table):
    """The close queues both: the cote holds the club's row and writes the season's summaries
    (their key checks read the season's row), the ranking holds the season's row and marks the
    club's pages changed. The ranking's hold lets those key checks through (FOR NO KEY
    UPDATE): with FOR UPDATE the two waited for each other and PostgreSQL killed the ranking."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks and deadlocks are PostgreSQL's; SQLite runs one writer at a time")
    ranking_pid: list[int] = []
    outcomes: dict[str, str] = {}

    def ranking() -> None:
        try:
            ranking_pid.append(connection.cursor().connection.info.backend_pid)
            season_ranking_update(season)
            outcomes["ranking"] = "done"
        except Exception as error:  # the deadlock, if it comes back
            outcomes["ranking"] = repr(error)
        finally:
            connection.close()

    def waits_on_a_lock(pid: int) -> bool:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
            return cursor.fetchone() == ("Lock",)

    with transaction.atomic():
        # As the cote: the club's row first.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        thread = threading.Thread(target=ranking)
        thread.start()
        deadline = time.monotonic() + 20
        while not (ranking_pid and waits_on_a_lock(ranking_pid[0])):
            assert time.monotonic() < deadline, "the ranking never reached the club's row"
            time.sleep(0.05)
        # A row keyed to the season, as the season's summaries are, while the ranking waits.
        TournamentFactory(club=club, season=season, point_table=point_table)
    thread.join(timeout=30)
    assert outcomes == {"ranking": "done"}
