"""``manage.py bench lighthouse``: its pure parts (the pages, the table, the goals, the block
written into docs/benchmarks.md, the missing tools said in words). Lighthouse itself is never
run by the tests: a run takes minutes."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from benchmarks import lighthouse
from benchmarks.figures import block_rewritten
from benchmarks.lighthouse import END, START, Page, failing_audits, table
from benchmarks.lighthouse_pages import PAGES


def report(performance=0.97, accessibility=1, cls=0.01, tbt=40.0, contrast=1):
    """A Lighthouse JSON report cut down to what the bench reads."""
    return {
        "categories": {
            "performance": {"score": performance, "auditRefs": [{"id": "lcp", "weight": 25}]},
            "accessibility": {
                "score": accessibility,
                "auditRefs": [{"id": "color-contrast", "weight": 7}, {"id": "info", "weight": 0}],
            },
            "best-practices": {"score": 1, "auditRefs": []},
            "seo": {"score": 1, "auditRefs": []},
        },
        "audits": {
            "cumulative-layout-shift": {"numericValue": cls},
            "total-blocking-time": {"numericValue": tbt},
            "lcp": {"score": 0.95},
            "color-contrast": {"score": contrast},
            "info": {"score": 0},
        },
    }


def test_the_eight_pages_of_the_issue_two_of_them_logged_in():
    assert len(PAGES) == 8
    assert [name for name, login in PAGES if login] == [
        "score sheet (night running)",
        "Mes résultats",
    ]


def test_each_figure_of_the_table_is_the_median_of_the_runs():
    page = Page("home", "/")
    for performance, cls, tbt in ((0.80, 0.2, 500.0), (0.97, 0.01, 40.0), (0.99, 0.0, 10.0)):
        page.add(report(performance=performance, cls=cls, tbt=tbt))
    assert table([page]) == [
        "| page | performance | accessibility | best practices | SEO | CLS | TBT ms |",
        "|---|--:|--:|--:|--:|--:|--:|",
        "| home | 97 | 100 | 100 | 100 | 0.010 | 40 |",
    ]
    assert page.misses() == []


def test_a_page_short_of_a_goal_says_which_and_by_what():
    page = Page("night's results", "/r/")
    page.add(report(performance=0.8, accessibility=0.93, cls=0.145, tbt=460.0, contrast=0))
    assert page.misses() == [
        "performance 80 < 95",
        "accessibility 93 < 100",
        "CLS 0.145 > 0.05",
        "TBT 460 ms > 150 ms",
    ]
    # The audit that holds the gap; one of no weight (informative) is not named.
    assert page.failing == ["accessibility: color-contrast"]


def test_failing_audits_count_performance_from_lighthouses_pass_mark():
    assert failing_audits(report()) == []


def test_the_table_replaces_only_its_own_block(tmp_path):
    path = tmp_path / "benchmarks.md"
    path.write_text(f"# Bench\n{START}\nold\n{END}\nafter\n", encoding="utf-8")
    block_rewritten(path, START, END, [START, "| new |", END])
    assert path.read_text(encoding="utf-8") == f"# Bench\n{START}\n| new |\n{END}\nafter\n"


def test_no_node_is_said_in_words(monkeypatch):
    monkeypatch.setattr(lighthouse.shutil, "which", lambda name: None)
    with pytest.raises(CommandError, match="Node.js is not installed"):
        lighthouse.lighthouse_binary(None, print)


def test_no_chromium_is_said_in_words(monkeypatch):
    monkeypatch.delenv("CHROME_PATH", raising=False)
    monkeypatch.setattr(lighthouse.shutil, "which", lambda name: None)
    with pytest.raises(CommandError, match="Chromium is not installed"):
        call_command("bench", "lighthouse", "--runs", "1")


def test_the_site_runs_without_the_shells_database_or_debug(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgres://club")
    monkeypatch.setenv("DJANGO_DEBUG", "1")
    env = lighthouse.site_environment(tmp_path, 8123)
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'site.sqlite3'}"
    assert "DJANGO_DEBUG" not in env
    assert len(env["DJANGO_SECRET_KEY"]) > 40
    assert env["DJANGO_STATIC_ROOT"] == str(tmp_path / "static")
