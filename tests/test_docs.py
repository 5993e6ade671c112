"""The README and the pages of docs/ name only what exists: every path into the repository,
every `manage.py` command, every program of the virtualenv and every module run with `-m`.

A backticked path is read as `tests/test_map.py` reads the map's (from the root, or from a
folder the same line names; globs and placeholders as patterns). Only paths into what the
repository holds are checked: a backticked `soirees/<saison>/…` is a file in a club's archive,
`build/` or `media/` what a run leaves behind (.gitignore), `css/site.4f1c….css` an address.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from django.core.management import get_commands

from .test_map import candidates, exists, line_paths

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = ("running-a-club.md", "federation.md", "api.md", "production.md", "benchmarks.md", "map.md")
DOCS = [README, *(ROOT / "docs" / page for page in PAGES)]

MANAGE = re.compile(r"manage\.py\s+([a-z][a-z0-9_]*)")
VENV_PROGRAM = re.compile(r"\.venv/bin/([\w.-]+)")
MODULE_RUN = re.compile(r"\.venv/bin/python\s+-m\s+([\w.]+)")


def left_behind() -> set[str]:
    """The top-level names .gitignore lists: what a run or an install leaves, not the code."""
    names = set()
    for line in (ROOT / ".gitignore").read_text().splitlines():
        name = line.strip().strip("/")
        if name and "/" not in name and not name.startswith("#"):
            names.add(name)
    return names


def repository_entries() -> set[str]:
    ignored = left_behind()
    return {path.name for path in ROOT.iterdir() if path.name not in ignored}


def dead_paths(text: str, entries: set[str]) -> list[str]:
    dead = []
    for number, line in enumerate(text.splitlines(), start=1):
        paths, folders = line_paths(line)
        for token in paths:
            found = any(exists(candidate) for candidate in candidates(token, folders))
            into_repository = token.split("/", 1)[0] in entries or any(
                folder.split("/", 1)[0] in entries for folder in folders
            )
            if into_repository and not found:
                dead.append(f"line {number}: `{token}`")
    return dead


def unknown_commands(text: str, commands: set[str], programs: Path) -> list[str]:
    unknown = [f"manage.py {name}" for name in MANAGE.findall(text) if name not in commands]
    unknown += [
        f".venv/bin/{name}" for name in VENV_PROGRAM.findall(text) if not (programs / name).exists()
    ]
    unknown += [
        f"python -m {module}"
        for module in MODULE_RUN.findall(text)
        if importlib.util.find_spec(module) is None
    ]
    return sorted(set(unknown))


def test_the_readme_fits_on_a_screen_and_links_every_page():
    text = README.read_text()
    assert len(text.splitlines()) < 200
    for page in PAGES:
        assert f"](docs/{page})" in text, f"README.md does not link docs/{page}"


def test_every_repository_path_the_docs_name_exists():
    entries = repository_entries()
    dead = [
        f"{doc.relative_to(ROOT)} {where}"
        for doc in DOCS
        for where in dead_paths(doc.read_text(), entries)
    ]
    assert not dead, "the docs name paths that do not exist:\n" + "\n".join(dead)


def test_every_command_the_docs_name_exists():
    # The programs of the virtualenv running the tests: the one the Quick start makes.
    commands, programs = set(get_commands()), Path(sys.prefix) / "bin"
    unknown = [
        f"{doc.relative_to(ROOT)}: {name}"
        for doc in DOCS
        for name in unknown_commands(doc.read_text(), commands, programs)
    ]
    assert not unknown, "the docs name commands that do not exist:\n" + "\n".join(unknown)


def test_the_checks_refuse_a_dead_path_and_an_unknown_command():
    entries = repository_entries()
    text = "`games/nowhere.py`, `soirees/2024/x.json`, `build/screenshots/`, `deploy/Procfile`"
    assert dead_paths(text, entries) == ["line 1: `games/nowhere.py`"]
    assert dead_paths("| `games/views/` | `sheet.py`, `nowhere.py` |", entries) == [
        "line 1: `nowhere.py`"
    ]
    text = (
        "`.venv/bin/python manage.py migrate` then `manage.py nightly_magic`; "
        "`.venv/bin/python -m scoring.engine`, `.venv/bin/python -m scoring.nowhere`, "
        "`.venv/bin/no-such-program`"
    )
    assert unknown_commands(text, set(get_commands()), Path(sys.prefix) / "bin") == [
        ".venv/bin/no-such-program",
        "manage.py nightly_magic",
        "python -m scoring.nowhere",
    ]
