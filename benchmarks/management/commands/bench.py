"""``manage.py bench``: every benchmark and load test of the site, one entry.

    manage.py bench [--quick | --full] [--only M,…] [--requests N] [--seed N]
                                        every measure at two sizes, next to its baseline
    manage.py bench sheet   [--seed N] [--players N] [--rounds N]      recording a night's deals
    manage.py bench pages   [--seed N] [--requests N] [--seasons N] [--nights N] [--players N]
    manage.py bench api     [--seed N] [--requests N] [--seasons N] [--nights N]
    manage.py bench ratings [--seed N] [--seasons N] [--nights N] [--players N] [--requests N]
    manage.py bench engine  [--deals N] [--repeats N] [--nights N] [--seed N]   (no database)
    manage.py bench federation [--clubs N] [--seasons N] [--nights N] [--scorers N]
                               [--scorer-deals N] [--deals N] [--seed N]
                                        a federation's decade on PostgreSQL (DATABASE_URL)
    manage.py bench decade  [--clubs N] [--seasons N] [--nights N] [--seed N]
                                        that decade imported from club-night files
    manage.py bench load    --url http://127.0.0.1:PORT --path ADDRESS … [-c N] [-d S] [--as USER]
    manage.py bench smoke   URL [--timeout S]
    manage.py bench drill   URL         PostgreSQL's and Redis's connections dropped under deals
    manage.py bench lighthouse [--runs N] [--page NAME …] [--lighthouse PATH] [--reports DIR]
                               [--figures]
                                        Lighthouse on eight pages of the demo, served as in
                                        production (needs Node and Chromium)

The measures (the first five) run in a throw-away database they make and drop; ``load``,
``smoke`` and ``drill`` work against a running site on this machine and its database.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from benchmarks import engine, query_budget, suite
from benchmarks import federation as federation_bench
from benchmarks.api import RATES, api
from benchmarks.data import PLAYERS, ROUNDS, SEASONS, TOURNAMENTS
from benchmarks.deals import sheet
from benchmarks.decade import decade
from benchmarks.drill import drill
from benchmarks.figures import figures_rewritten
from benchmarks.lighthouse import lighthouse
from benchmarks.lighthouse_pages import PAGES
from benchmarks.load import MAX_SECONDS, load
from benchmarks.member_import import members
from benchmarks.pages import pages
from benchmarks.ratings import ratings
from benchmarks.sandbox import tasks_in_process, throwaway_database
from benchmarks.smoke import smoke

# A cache of its own: some measures empty the cache, which must not empty the club's Redis.
OWN_CACHE = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "bench"}
}


def _federation_size(parser: CommandParser) -> None:
    """A federation's size and seed: ``bench federation``'s and ``bench decade``'s."""
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--clubs", type=int, default=federation_bench.CLUBS)
    parser.add_argument("--seasons", type=int, default=federation_bench.SEASONS)
    parser.add_argument(
        "--nights", type=int, default=federation_bench.NIGHTS, help="nights per season"
    )


def _suite_options(parser: CommandParser) -> None:
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--only",
        default=",".join(suite.MEASURES),
        help=f"measures to run, comma-separated, among {', '.join(suite.MEASURES)}",
    )
    parser.add_argument(
        "--requests",
        type=int,
        default=None,
        help="requests (or runs) per measure and size; default 50, 3 with --quick",
    )
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--full", action="store_true", help="import 500 nights (10 seasons of 50)")
    sizes.add_argument(
        "--quick",
        action="store_true",
        help="tiny sizes: checks that every measure runs and that no path gains a query",
    )
    parser.add_argument(
        "--figures",
        action="store_true",
        help="rewrite docs/benchmarks.md's table of figures from this run (a full run of every "
        "measure)",
    )
    parser.add_argument(
        "--store-queries",
        action="store_true",
        help="with --quick on SQLite: write each path's query count as its new budget",
    )


def _club_sizes(parser: CommandParser, requests: int, players: bool) -> None:
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--requests", type=int, default=requests, help="requests per address")
    parser.add_argument("--seasons", type=int, default=SEASONS)
    parser.add_argument("--nights", type=int, default=TOURNAMENTS, help="nights per season")
    if players:
        parser.add_argument("--players", type=int, default=PLAYERS, help="a multiple of four")


class Command(BaseCommand):
    help = (
        "Benchmarks: with no name, pages, recording a deal, the season ranking, the import and "
        "the engine at two sizes each next to their baselines, in a throw-away database; or "
        "one of: sheet, pages, api, engine, load (a running site), smoke (a running site)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        _suite_options(parser)
        benchmarks = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK")

        sheet_parser = benchmarks.add_parser(
            "sheet", help="recording every deal of a 40-player night through the score sheet"
        )
        sheet_parser.add_argument("--seed", type=int, default=2026)
        sheet_parser.add_argument("--players", type=int, default=PLAYERS)
        sheet_parser.add_argument("--rounds", type=int, default=ROUNDS)

        _club_sizes(
            benchmarks.add_parser("pages", help="the ranking and player pages, 10 seasons"),
            requests=200,
            players=True,
        )
        _club_sizes(
            benchmarks.add_parser("api", help="the API's ranking and night endpoints"),
            requests=100,
            players=False,
        )
        ratings_parser = benchmarks.add_parser(
            "ratings",
            help="the « cote »: which model predicts the next night, rebuild and update times, "
            "the statistics page",
        )
        ratings_parser.add_argument("--seed", type=int, default=2026)
        ratings_parser.add_argument("--seasons", type=int, default=SEASONS)
        ratings_parser.add_argument("--nights", type=int, default=40, help="nights per season")
        ratings_parser.add_argument("--players", type=int, default=PLAYERS)
        ratings_parser.add_argument("--requests", type=int, default=50)
        benchmarks.add_parser(
            "engine",
            parents=[engine.options()],
            help="the scoring engine alone, no database (as python -m benchmarks.engine)",
        )

        federation_parser = benchmarks.add_parser(
            "federation",
            help="a federation of 100 clubs × 10 seasons × 40 nights on PostgreSQL: a deal "
            "recorded in it and in an empty database, its ranking task, its pages, 200 scorers",
        )
        _federation_size(federation_parser)
        federation_parser.add_argument(
            "--scorers", type=int, default=federation_bench.SCORERS, help="0: no load test"
        )
        federation_parser.add_argument(
            "--deals", type=int, default=federation_bench.DEALS_TIMED, help="deals timed"
        )
        federation_parser.add_argument(
            "--scorer-deals",
            type=int,
            default=federation_bench.DEALS_EACH,
            help="deals each scorer of the load test records",
        )

        decade_parser = benchmarks.add_parser(
            "decade",
            help="that federation's decade (100 clubs × 10 seasons × 40 nights) imported from "
            "club-night files, club by club, on PostgreSQL",
        )
        _federation_size(decade_parser)

        load_parser = benchmarks.add_parser(
            "load", help=f"load a running site on 127.0.0.1 (at most {MAX_SECONDS} s)"
        )
        load_parser.add_argument("--url", required=True, help="e.g. http://127.0.0.1:8765")
        load_parser.add_argument(
            "--path", action="append", required=True, help="address to ask (repeatable)"
        )
        load_parser.add_argument("-c", "--concurrency", type=int, default=16)
        load_parser.add_argument("-d", "--duration", type=float, default=30.0, help="seconds")
        load_parser.add_argument(
            "--as", dest="username", help="sign the clients in as this account"
        )

        members_parser = benchmarks.add_parser(
            "members", help="40 members imported from an Excel file, page by page"
        )
        members_parser.add_argument("--count", type=int, default=40)
        members_parser.add_argument("--runs", type=int, default=5)

        smoke_parser = benchmarks.add_parser(
            "smoke", help="HTTP smoke test of a running site (log in, record, close, wait)"
        )
        smoke_parser.add_argument("url", help="the running site, e.g. http://127.0.0.1:8765")
        smoke_parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait")

        drill_parser = benchmarks.add_parser(
            "drill",
            help="a running site's connections to PostgreSQL and Redis dropped under deals",
        )
        drill_parser.add_argument("url", help="the running site, e.g. http://127.0.0.1:8765")

        lighthouse_parser = benchmarks.add_parser(
            "lighthouse",
            help="Lighthouse (mobile) on eight pages of the demo, served as in production "
            "(DEBUG off, collectstatic, gunicorn) from a throw-away database; needs Node "
            "and Chromium",
        )
        lighthouse_parser.add_argument(
            "--runs", type=int, default=3, help="runs a page; the median is kept"
        )
        lighthouse_parser.add_argument(
            "--page",
            action="append",
            choices=[name for name, _ in PAGES],
            help="only this page (repeatable)",
        )
        lighthouse_parser.add_argument(
            "--lighthouse", help="a Lighthouse to run (default: installed by npm in a cache)"
        )
        lighthouse_parser.add_argument("--reports", help="keep each run's JSON report here")
        lighthouse_parser.add_argument(
            "--figures", action="store_true", help="write the table into docs/benchmarks.md"
        )

    def handle(self, *args: Any, benchmark: str | None = None, **options: Any) -> None:
        write = self.stdout.write
        if benchmark is None:
            self._suite(**options)
        elif benchmark == "sheet":
            with throwaway_database():
                sheet(
                    write,
                    seed=options["seed"],
                    players=options["players"],
                    rounds=options["rounds"],
                )
        elif benchmark == "pages":
            with throwaway_database():
                pages(
                    write, **self._pick(options, "seed", "requests", "seasons", "nights", "players")
                )
        elif benchmark == "api":
            rest = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": RATES}
            with throwaway_database(REST_FRAMEWORK=rest, CACHES=OWN_CACHE):
                api(write, **self._pick(options, "seed", "requests", "seasons", "nights"))
        elif benchmark == "ratings":
            # The site's addresses and the baseline's bare view.
            with throwaway_database(CACHES=OWN_CACHE, ROOT_URLCONF="benchmarks.urls"):
                ratings(
                    write, **self._pick(options, "seed", "seasons", "nights", "players", "requests")
                )
        elif benchmark == "members":
            with throwaway_database():
                members(write, count=options["count"], runs=options["runs"])
        elif benchmark == "federation":
            self._federation(**options)
        elif benchmark == "decade":
            self._decade(**options)
        elif benchmark == "engine":
            engine.run(write, **self._pick(options, "deals", "repeats", "nights", "seed"))
        elif benchmark == "load":
            load(
                write,
                url=options["url"],
                paths=options["path"],
                concurrency=options["concurrency"],
                duration=options["duration"],
                username=options["username"],
            )
        elif benchmark == "smoke":
            smoke(write, url=options["url"], timeout=options["timeout"])
        elif benchmark == "drill":
            drill(write, url=options["url"])
        elif benchmark == "lighthouse":
            if options["runs"] < 1:
                raise CommandError("--runs must be at least 1")
            lighthouse(
                write,
                runs=options["runs"],
                only=options["page"] or (),
                binary=options["lighthouse"],
                reports=options["reports"],
                figures=options["figures"],
            )

    @staticmethod
    def _federation_scale(total: int) -> None:
        if connection.vendor != "postgresql" and total > federation_bench.SQLITE_MAX_NIGHTS:
            raise CommandError(
                f"{total} nights is a federation's scale, measured on PostgreSQL only: set "
                "DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubwhist_bench (a throw-away "
                "database is made beside it and dropped), or scale down with --clubs, "
                f"--seasons and --nights (at most {federation_bench.SQLITE_MAX_NIGHTS} nights "
                f"on {connection.vendor})"
            )

    def _federation(
        self, *, clubs: int, seasons: int, nights: int, scorers: int, **options: Any
    ) -> None:
        if min(clubs, seasons, nights) < 1 or scorers < 0:
            raise CommandError("--clubs, --seasons and --nights must be at least 1")
        self._federation_scale(federation_bench.nights_of(clubs, seasons, nights))
        with throwaway_database(CACHES=OWN_CACHE):
            federation_bench.federation(
                self.stdout.write,
                clubs=clubs,
                seasons=seasons,
                nights=nights,
                scorers=scorers,
                **self._pick(options, "seed", "deals", "scorer_deals"),
            )

    def _decade(self, *, clubs: int, seasons: int, nights: int, seed: int, **_: Any) -> None:
        if min(clubs, seasons, nights) < 1:
            raise CommandError("--clubs, --seasons and --nights must be at least 1")
        self._federation_scale(federation_bench.nights_of(clubs, seasons, nights))
        with throwaway_database(CACHES=OWN_CACHE), tasks_in_process():
            decade(self.stdout.write, clubs=clubs, seasons=seasons, nights=nights, seed=seed)

    @staticmethod
    def _pick(options: dict[str, Any], *names: str) -> dict[str, Any]:
        return {name: options[name] for name in names}

    def _suite(
        self,
        *,
        seed: int,
        requests: int | None,
        full: bool,
        quick: bool,
        only: str,
        store_queries: bool,
        figures: bool,
        **_: Any,
    ) -> None:
        measures = [name.strip() for name in only.split(",") if name.strip()]
        unknown = sorted(set(measures) - set(suite.MEASURES))
        if unknown or not measures:
            raise CommandError(
                f"--only: unknown measure {', '.join(unknown) or '(none)'}; "
                f"known: {', '.join(suite.MEASURES)}"
            )
        if requests is None:
            requests = 3 if quick else 50
        if requests < 1:
            raise CommandError("--requests must be at least 1")
        if store_queries and not quick:
            raise CommandError("--store-queries: the budget is counted at the --quick sizes")
        if figures and (quick or set(measures) != set(suite.MEASURES)):
            raise CommandError(
                "--figures: docs/benchmarks.md's figures come from a full run of every measure"
            )
        sizes = suite.QUICK if quick else suite.FULL if full else suite.DEFAULT
        with throwaway_database(
            # The site's addresses and the baseline's bare view.
            ROOT_URLCONF="benchmarks.urls",
            EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
            CACHES=OWN_CACHE,
        ):
            rows = suite.run(
                self.stdout.write, sizes=sizes, requests=requests, seed=seed, only=measures
            )
            vendor = connection.vendor
        if figures:
            table = [row for key in suite.MEASURES for row in rows[key]]
            path = figures_rewritten(table, suite.goals(rows), vendor, requests)
            self.stdout.write(f"figures written into {path.name}")
        if quick:
            self._query_budget(
                [row for found in rows.values() for row in found], vendor, store_queries
            )

    def _query_budget(self, rows: list[Any], vendor: str, store: bool) -> None:
        """The quick run's guard: a path that gains a query fails it (CI runs it on SQLite)."""
        if store:
            try:
                query_budget.store(rows, vendor)
            except ValueError as refused:
                raise CommandError(str(refused)) from refused
            self.stdout.write(f"query budget written: {query_budget.BUDGET.name}")
            return
        if vendor != "sqlite":
            self.stdout.write(f"query budget: SQLite's, not checked on {vendor}")
            return
        over, under = query_budget.over_budget(rows, query_budget.stored())
        for line in under:
            self.stdout.write(f"query budget: {line} (lower it: bench --quick --store-queries)")
        if over:
            raise CommandError("a path gains queries:\n  " + "\n  ".join(over))
        self.stdout.write(f"query budget: {len(rows)} paths within their stored counts")
