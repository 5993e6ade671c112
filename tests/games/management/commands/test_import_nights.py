"""Importing a club's history: each night all or nothing, each touched season ranked once at
the end (not after every night), no result e-mail unless asked — and the ranking is the one
the engine computes from the same files."""

from __future__ import annotations

import copy
import datetime
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from club.models import Membership, Player
from games import nightfile
from games.demo import FIRST_NAMES, LAST_NAMES, random_night
from games.models import Deal, Poule, Seat, Tournament
from games.nightfile import document_problems, tournament_import, tournaments_import
from infra.outbox import TaskName
from scoring import services as scoring_services
from scoring.engine.season_file import rank_nights
from scoring.models import (
    PlayerNightStats,
    PlayerRating,
    PouleStanding,
    RankingSnapshot,
    TournamentStanding,
)
from scoring.services import (
    RowsLater,
    tournament_standings_update,
)
from scoring.services.sheets import NIGHT_STANDING_COLUMNS
from scoring.tasks import ratings_update as ratings_task

pytestmark = pytest.mark.django_db

MEMBERS = [f"{first} {last}" for first, last in zip(FIRST_NAMES, LAST_NAMES, strict=True)][:14]


def history(seasons=(2022, 2023), nights=3, seed=7):
    rng = random.Random(seed)
    return [
        random_night(
            rng,
            club="Whist Club Namur",
            season=str(year),
            date=datetime.date(year, month, 10),
            members=MEMBERS,
            present=rng.choice([12, 13]),
        )
        for year in seasons
        for month in range(1, nights + 1)
    ]


def queued(callbacks, task):
    return [c for c in callbacks if c.args and c.args[0] == task]


def test_each_touched_season_is_ranked_once_after_all_its_nights(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outcomes = tournaments_import(history())

    assert all(isinstance(outcome, Tournament) for outcome in outcomes)
    assert len(queued(callbacks, TaskName.SEASON_RANKING_UPDATE)) == 2
    assert queued(callbacks, TaskName.RESULTS_EMAIL) == []
    assert RankingSnapshot.objects.live().count() == 2


def test_result_emails_are_sent_only_when_asked(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        tournaments_import(history(seasons=(2023,), nights=2), send_results=True)

    assert len(queued(callbacks, TaskName.RESULTS_EMAIL)) == 2


def test_a_refused_night_does_not_stop_the_others(django_capture_on_commit_callbacks):
    docs = history(seasons=(2023,), nights=3)
    docs[1] = {**copy.deepcopy(docs[1]), "rules": "rcwist"}

    with django_capture_on_commit_callbacks(execute=True):
        outcomes = tournaments_import(docs)

    assert isinstance(outcomes[0], Tournament) and isinstance(outcomes[2], Tournament)
    assert any("rcwist" in problem for problem in outcomes[1])
    assert Tournament.objects.count() == 2


def test_the_stored_ranking_is_the_engines_ranking_of_the_same_files(
    django_capture_on_commit_callbacks,
):
    docs = history(seasons=(2023,), nights=4)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments_import(docs)

    live = RankingSnapshot.objects.live().get()
    stored = [
        (line.player.display_name, line.rank, line.tournament_points, line.game_points)
        for line in live.lines.in_order()
    ]
    engine = [
        (line.player, line.rank, line.tournament_points, line.game_points)
        for line in rank_nights(docs)
    ]
    assert stored == engine


@pytest.mark.django_db(transaction=True)
def test_a_long_import_has_postgresql_analyse_its_tables_as_it_goes(monkeypatch):
    """Every few nights the tables the import fills are analysed again where a tenth of their
    rows are new, so the queries that read one night keep using their indexes (PostgreSQL
    only: SQLite has nothing to refresh). Its batches commit, as a real import's do."""
    monkeypatch.setattr(nightfile, "STATISTICS_EVERY", 2)
    with CaptureQueriesContext(connection) as queries:
        outcomes = tournaments_import(history(seasons=(2023,), nights=5))

    assert all(isinstance(outcome, Tournament) for outcome in outcomes)
    analysed = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("ANALYZE")]
    if connection.vendor == "postgresql":
        assert len(analysed) == 2  # after the 2nd and the 4th night
        assert '"games_deal"' in analysed[0] and '"scoring_poulestanding"' in analysed[0]
    else:
        assert analysed == []


def first_night(club: str, present: int) -> dict:
    return random_night(
        random.Random(3),
        club=club,
        season="2023",
        date=datetime.date(2023, 1, 10),
        members=MEMBERS,
        present=present,
    )


def test_a_files_new_players_join_the_club_in_one_go_their_names_tidied():
    doc = first_night("Whist Club Namur", 13)
    # A name as a file may write it, with two spaces: stored as every other page writes names
    # (single spaces), and found again under its file's spelling.
    odd = doc["players"][0]
    renamed = odd.replace(" ", "  ", 1)
    doc = json.loads(json.dumps(doc).replace(json.dumps(odd)[1:-1], json.dumps(renamed)[1:-1]))
    with CaptureQueriesContext(connection) as thirteen:
        (night,) = tournaments_import([doc])
    with CaptureQueriesContext(connection) as eight:
        tournaments_import([first_night("Whist Club Dinant", 8)])

    # The players and their memberships in a statement each, not a few per new player.
    def players_statements(queries):
        return [
            q["sql"].split()[0]
            for q in queries.captured_queries
            if '"club_player"' in q["sql"] or '"club_membership"' in q["sql"]
        ]

    assert players_statements(thirteen) == players_statements(eight)
    assert players_statements(eight).count("INSERT") == 2
    assert isinstance(night, Tournament)
    members = Membership.objects.filter(club=night.club).select_related("player")
    assert sorted(m.player.display_name for m in members) == sorted(
        " ".join(name.split()) for name in doc["players"]
    )
    assert renamed not in {m.player.display_name for m in members}
    assert {(m.status, m.start) for m in members} == {(Membership.Status.ACTIVE, night.date)}
    first = members.get(player__display_name=odd).player
    assert (first.first_name, first.last_name) == tuple(odd.split(" ", 1))
    # The same file's next night finds him under its spelling: no second player of his name.
    later = json.loads(json.dumps(doc).replace(str(night.date), "2030-01-04"))
    tournaments_import([later])
    assert Membership.objects.filter(club=night.club).count() == members.count()


def cote_and_ranking(club: str) -> tuple[list, list, list]:
    """What the import leaves of a club's cote, night statistics and season rankings, named
    by player and night (two clubs' rows compare although their ids differ)."""
    ratings = sorted(
        (
            r.tournament.date,
            r.player.display_name,
            r.mu,
            r.sigma,
            r.conservative,
            r.deals,
            r.night_deals,
            r.expected,
            r.actual,
            r.change,
            r.moves,
            r.current,
        )
        for r in PlayerRating.objects.filter(tournament__club__name=club).select_related(
            "tournament", "player"
        )
    )
    names = {str(p.pk): p.display_name for p in Player.objects.all()}

    def named(data: dict) -> str:
        # A night's statistics name the partners and opponents by their player ids.
        for key in ("partners", "opponents"):
            data[key] = {names[pk]: value for pk, value in data.get(key, {}).items()}
        return json.dumps(data, sort_keys=True)

    stats = sorted(
        (s.tournament.date, s.player.display_name, named(s.data))
        for s in PlayerNightStats.objects.filter(tournament__club__name=club).select_related(
            "tournament", "player"
        )
    )
    ranking = [
        (line.snapshot.season.name, line.player.display_name, line.rank, line.tournament_points)
        for snapshot in RankingSnapshot.objects.live().filter(season__club__name=club)
        for line in snapshot.lines.in_order().select_related("snapshot__season", "player")
    ]
    return ratings, stats, sorted(ranking)


def test_a_batch_ends_as_importing_its_files_one_by_one(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The cote and the night statistics are written once per batch, from its earliest night,
    and the seasons ranked once at the end: the same rows as each file imported alone, even
    with the files out of date order, across batches, and with a refused one among them."""
    monkeypatch.setattr(nightfile, "STATISTICS_EVERY", 3)
    docs = history(seasons=(2022, 2023), nights=3)
    docs = [docs[3], docs[0], docs[5], docs[1], docs[4], docs[2]]  # not in date order
    docs.insert(2, {**copy.deepcopy(docs[2]), "rules": "rcwist"})
    alone = [{**copy.deepcopy(doc), "club": "Whist Club Dinant"} for doc in docs]

    rated = []
    rate = scoring_services.ratings_update
    monkeypatch.setattr(
        scoring_services,
        "ratings_update",
        lambda night, **kw: rated.append(night) or rate(night, **kw),
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outcomes = tournaments_import(docs)
    assert [isinstance(o, Tournament) for o in outcomes] == [True, True, False, *[True] * 4]
    # Rated once per batch of three files, in the batch's transaction: nothing left queued.
    assert len(rated) == 3
    assert not queued(callbacks, TaskName.RATINGS_UPDATE)
    for doc in alone:
        with django_capture_on_commit_callbacks(execute=True):
            tournaments_import([doc])

    batch, one_by_one = cote_and_ranking("Whist Club Namur"), cote_and_ranking("Whist Club Dinant")
    assert batch[0] and batch[1] and batch[2]
    assert batch == one_by_one


def test_the_cote_an_import_rates_from_memory_is_the_one_its_queued_task_reads_back(
    django_capture_on_commit_callbacks,
):
    """A batch rates its nights as it holds them, without reading back their rows: the same
    ratings, moves and night statistics as the queued task, which reads every night from its
    rows, writes again over them, a night stored before the batch included."""
    docs = history(seasons=(2022, 2023), nights=3, seed=5)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments_import(docs[4:])  # a later night, stored before the batch
        tournaments_import(docs[:4])
    from_memory = cote_and_ranking("Whist Club Namur")
    assert PlayerRating.objects.filter(tournament__date=docs[5]["date"]).exists()

    first = Tournament.objects.order_by("date").first()
    with django_capture_on_commit_callbacks(execute=True):
        assert ratings_task(first.pk) == 6

    assert from_memory[0] and from_memory[1]
    assert cote_and_ranking("Whist Club Namur") == from_memory


def test_an_imported_nights_standings_are_those_the_site_sums_from_its_poules():
    """The import sums the night's standings from the poule lines it has just written, without
    reading them back: the same lines, in the same order, as summing the stored ones."""
    tournaments_import(history(seasons=(2023,), nights=2, seed=11))

    def lines(night: Tournament) -> list[tuple]:
        return list(
            TournamentStanding.objects.filter(tournament=night)
            .order_by("pk")
            .values_list(*NIGHT_STANDING_COLUMNS[1:])
        )

    for night in Tournament.objects.all():
        imported = lines(night)
        tournament_standings_update(night)
        assert imported and imported == lines(night)


def test_what_a_refused_night_opened_is_not_used_by_the_next_one_of_its_batch():
    """A batch looks its club, seasons, tables and players up once; a season a refused night
    opened is rolled back with it, and the next night of the batch opens it again."""
    first, second = history(seasons=(2023,), nights=2, seed=5)
    tournaments_import([first])
    again = {**copy.deepcopy(first), "season": "Saison X"}  # refused: already imported
    outcomes = tournaments_import([again, {**second, "season": "Saison X"}])

    assert isinstance(outcomes[0], list)
    assert isinstance(outcomes[1], Tournament)
    stored = Tournament.objects.select_related("season").get(pk=outcomes[1].pk)
    assert stored.season.name == "Saison X"
    assert stored.standings.count() == len(second["players"])


def test_a_batch_reads_its_clubs_nights_once_and_refuses_a_night_given_twice():
    """Whether each night exists already is read once a club for the batch's dates, the
    batch's own stored nights counted: the same file twice in a batch is refused the second
    time, and a night refused before it is stored does not count."""
    first, second = history(seasons=(2023,), nights=2, seed=3)
    refused = {**copy.deepcopy(second), "rules": "rcwist"}

    with CaptureQueriesContext(connection) as queries:
        outcomes = tournaments_import([first, refused, copy.deepcopy(first), second])

    assert isinstance(outcomes[0], Tournament) and isinstance(outcomes[3], Tournament)
    assert any("rcwist" in problem for problem in outcomes[1])
    assert any("already has" in problem for problem in outcomes[2])
    assert Tournament.objects.count() == 2
    assert len([q for q in queries if '"games_tournament"."date" IN (' in q["sql"]]) == 1


# import_nights keeps going: every malformed file is refused with its problems located, never
# a traceback, nothing of it written, and the good file after it is imported. A table without a
# single deal is imported as unplayed: its players get no standings.


def deeply_nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def bad_documents(doc: dict[str, Any]) -> dict[str, Any]:
    """One broken file per kind of malformed input, each otherwise the good night."""
    long_name = copy.deepcopy(doc)
    long_name["players"][0] = "X" * 81
    long_name["poules"][0]["seats"][0] = "X" * 81
    nul = copy.deepcopy(doc)
    nul["name"] = "Soirée\x00"
    huge = copy.deepcopy(doc)
    huge["poules"][0]["deals"][0]["penalty"] = 10**30
    nested = copy.deepcopy(doc)
    nested["name"] = [[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]
    return {"long_name": long_name, "nul": nul, "huge": huge, "nested": nested}


def test_each_malformed_input_is_a_located_problem(night_document):
    problems = {name: document_problems(doc) for name, doc in bad_documents(night_document).items()}

    assert problems["long_name"] == [
        "poules[0].seats[0]: 81 characters, at most 80",
        "players[0]: 81 characters, at most 80",
    ]
    assert problems["nul"] == ["name: contains a NUL character"]
    assert problems["huge"] == [
        f"poules[0].deals[0].penalty: {10**30} is out of range (±1000000000)"
    ]
    assert problems["nested"][0].startswith("name")
    assert "nested deeper than" in problems["nested"][0]
    assert document_problems(night_document) == []


def test_import_nights_refuses_each_bad_file_and_imports_the_good_one(
    tmp_path: Path, night_document, capsys
):
    files = []
    for name, doc in bad_documents(night_document).items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        files.append(str(path))
    recursion = tmp_path / "recursion.json"
    recursion.write_text(deeply_nested(100_000))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(night_document), encoding="utf-8")

    with pytest.raises(CommandError, match="6 of 7 files refused"):
        call_command("import_nights", str(recursion), str(binary), *files, str(good))

    err = capsys.readouterr().err
    assert "recursion.json: refused" in err
    assert "nested too deeply" in err
    assert "not UTF-8" in err or "not JSON" in err
    assert "contains a NUL character" in err
    assert "Traceback" not in err
    assert Tournament.objects.count() == 1
    assert Tournament.objects.get().standings.count() == 9


def test_a_table_without_deals_is_imported_as_unplayed(night_document):
    doc = copy.deepcopy(night_document)
    unplayed = doc["poules"][-1]
    unplayed["deals"] = []
    tournament = tournament_import(doc)

    poule = Poule.objects.get(
        tournament=tournament, round=unplayed["round"], table=unplayed["table"]
    )
    assert poule.deals.count() == 0
    assert not PouleStanding.objects.filter(poule=poule).exists()
    # Its players have the standings of the tables they did play, and no table won here.
    other = PouleStanding.objects.filter(poule__tournament=tournament).exclude(poule=poule)
    assert TournamentStanding.objects.filter(tournament=tournament).count() == len(
        {line.player_id for line in other}
    )
    for line in TournamentStanding.objects.filter(tournament=tournament):
        played = other.filter(player_id=line.player_id)
        assert line.poules_played == played.count()
        assert line.poules_won == played.filter(rank=1).count()


def test_a_batchs_rows_refused_together_are_written_night_by_night(
    monkeypatch, django_capture_on_commit_callbacks
):
    def refused(self):
        raise DatabaseError("the batch's rows")

    docs = history(seasons=(2023,), nights=3)
    monkeypatch.setattr(RowsLater, "write", refused)

    with django_capture_on_commit_callbacks(execute=True):
        outcomes = tournaments_import(docs)

    assert all(isinstance(outcome, Tournament) for outcome in outcomes)
    assert Tournament.objects.filter(status=Tournament.Status.CLOSED).count() == 3
    for outcome, doc in zip(outcomes, docs, strict=True):
        assert Deal.objects.filter(poule__tournament=outcome).count() == sum(
            len(poule["deals"]) for poule in doc["poules"]
        )


def test_a_batchs_nights_are_closed_with_their_rows_written_once_for_the_batch(
    django_capture_on_commit_callbacks,
):
    docs = history(seasons=(2023,), nights=3)

    with django_capture_on_commit_callbacks(execute=True):
        outcomes = tournaments_import(docs)

    for outcome, doc in zip(outcomes, docs, strict=True):
        assert outcome.status == Tournament.Status.CLOSED
        seats = sum(len(poule["seats"]) for poule in doc["poules"])
        assert Seat.objects.filter(tournament=outcome).count() == seats
        assert TournamentStanding.objects.filter(tournament=outcome).count() == len(doc["players"])
