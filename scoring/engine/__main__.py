"""Score a paper score sheet with no site at all.

    python -m scoring.engine score NIGHT.json
    python -m scoring.engine rank NIGHT.json ... [--best-n N] [--min-tournaments M]

The result JSON goes to stdout. A refused document exits with status 1 and its located
problems on stderr, one per line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .errors import DocumentRefused, EngineError
from .night import score_night_document
from .ranking import RankingRules
from .season_file import rank_nights, ranking_document


def _read(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise DocumentRefused([f"{path}: cannot be read ({error.strerror})"]) from None
    except json.JSONDecodeError as error:
        raise DocumentRefused(
            [f"{path}: not JSON (line {error.lineno}, column {error.colno}: {error.msg})"]
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.engine", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser(
        "score", help="score one club night (club-night/1 → club-night-result/1)"
    )
    score.add_argument("night", help="a club-night/1 JSON file")
    rank = commands.add_parser("rank", help="the season ranking of several club nights")
    rank.add_argument("nights", nargs="+", help="club-night/1 JSON files")
    rank.add_argument("--best-n", type=int, default=None, help="count each player's N best nights")
    rank.add_argument("--min-tournaments", type=int, default=0, help="list players below apart")
    args = parser.parse_args(argv)
    try:
        if args.command == "score":
            result = score_night_document(_read(args.night))
        else:
            docs = []
            problems: list[str] = []
            for path in args.nights:
                try:
                    docs.append(_read(path))
                except DocumentRefused as refused:
                    problems.extend(refused.problems)
            if problems:
                raise DocumentRefused(problems)
            rules = RankingRules(best_n=args.best_n, min_tournaments=args.min_tournaments)
            result = ranking_document(rank_nights(docs, rules))
    except DocumentRefused as refused:
        for problem in refused.problems:
            print(problem, file=sys.stderr)
        return 1
    except EngineError as error:
        print(error, file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
