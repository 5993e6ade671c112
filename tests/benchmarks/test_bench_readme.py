"""``manage.py bench --figures``: docs/benchmarks.md's figures are one run's, rewritten whole."""

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from benchmarks.figures import END, PAGE, START, figures_rewritten
from benchmarks.report import Row


def rows() -> list[Row]:
    row = Row("results page (games:results)", "40 players")
    row.add((12.0, 5, None), (2.0, 1, None))
    row.add((14.0, 5, None), (2.0, 1, None))
    return [row]


def test_the_block_between_the_markers_is_this_runs_and_the_rest_of_the_page_stays(tmp_path):
    page = tmp_path / PAGE
    page.parent.mkdir()
    page.write_text(f"# Benchmarks\n\nbefore\n{START}\n| old | figures |\n{END}\nafter\n")

    with override_settings(BASE_DIR=tmp_path):
        figures_rewritten(rows(), ["goals (printed, never asserted):", "  ok"], "postgresql", 50)

    text = page.read_text()
    assert text.startswith("# Benchmarks\n\nbefore\n" + START)
    assert text.endswith(END + "\nafter\n")
    assert "| old | figures |" not in text
    assert "| results page (games:results) | 40 players | 13.0 | 14.0 | 5 | 2.00 | 6.50× |" in text
    assert "postgresql, " in text and "50 requests" in text
    assert "goals (printed, never asserted):" in text


def test_a_page_without_the_markers_is_refused_and_left_as_it_was(tmp_path):
    page = tmp_path / PAGE
    page.parent.mkdir()
    page.write_text("# Benchmarks\n")

    with override_settings(BASE_DIR=tmp_path), pytest.raises(ValueError, match="no bench block"):
        figures_rewritten(rows(), [], "sqlite", 3)

    assert page.read_text() == "# Benchmarks\n"


@pytest.mark.parametrize("options", [["--quick"], ["--only", "results"]])
def test_the_figures_are_written_from_a_full_run_only(options):
    with pytest.raises(CommandError, match="full run"):
        call_command("bench", "--figures", *options)


def test_the_benchmarks_page_has_the_block():
    text = (settings.BASE_DIR / PAGE).read_text(encoding="utf-8")
    assert text.index(START) < text.index(END)
