"""The map stays whole: `docs/map.md` names every package and module of the apps, and every
path it names exists (the README and the other pages of docs/: tests/test_docs.py).

A backticked token that looks like a path (it holds a "/" or ends in ".py", with no space, and
is not an address such as `/api/v1/`) is read relative to the repository and to each folder
the same line names (a backticked token ending in "/"). So a module `folder/name.py` is named
when the map holds its full path, or when one line holds `folder/` and `name.py`; a package
when the map holds its folder. Globs (`*/views/`, `scoring/tables/*.json`) and placeholders
(`games/dealforms/<game>.py`) are resolved as patterns: at least one file must match.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "map.md"
# The apps, the site package and the plumbing: each of their modules has its line in the map.
PACKAGES = ("club", "games", "scoring", "clubsite", "front", "api", "benchmarks", "config", "infra")

TOKEN = re.compile(r"`([^`\n]+)`")
PLACEHOLDER = re.compile(r"<[^>/]+>")


def app_modules() -> set[str]:
    """Every module (not `__init__.py`, not a migration) and every package folder (`x/y/`)."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts:
                continue
            if path.name == "__init__.py":
                found.add(relative.parent.as_posix() + "/")
            else:
                found.add(relative.as_posix())
    return found


def is_path(token: str) -> bool:
    if " " in token or token.startswith(("/", "http", "…")) or "://" in token:
        return False
    return "/" in token or token.endswith(".py")


def line_paths(line: str) -> tuple[list[str], list[str]]:
    """The line's path tokens, and the folders it names (the tokens that end in "/")."""
    paths = [token for token in TOKEN.findall(line) if is_path(token)]
    return paths, [token for token in paths if token.endswith("/")]


def candidates(token: str, folders: list[str]) -> list[str]:
    """The token read from the repository's root and from each folder the line names."""
    bases = [""] + [folder for folder in folders if folder != token]
    return [base + token for base in bases]


def exists(pattern: str) -> bool:
    pattern = PLACEHOLDER.sub("*", pattern)
    if any(char in pattern for char in "*?["):
        return any(True for _ in ROOT.glob(pattern.rstrip("/")))
    path = ROOT / pattern
    return path.is_dir() if pattern.endswith("/") else path.exists()


def dead_paths(text: str) -> list[str]:
    dead = []
    for number, line in enumerate(text.splitlines(), start=1):
        paths, folders = line_paths(line)
        for token in paths:
            if not any(exists(candidate) for candidate in candidates(token, folders)):
                dead.append(f"line {number}: `{token}`")
    return dead


def named_paths(text: str) -> set[str]:
    named = set()
    for line in text.splitlines():
        paths, folders = line_paths(line)
        for token in paths:
            named.update(candidates(token, folders))
    return named


def test_the_map_names_every_module_and_package():
    missing = sorted(app_modules() - named_paths(MAP.read_text()))
    assert not missing, "docs/map.md does not name:\n" + "\n".join(missing)


def test_every_path_the_map_names_exists():
    dead = dead_paths(MAP.read_text())
    assert not dead, "docs/map.md names paths that do not exist:\n" + "\n".join(dead)


def test_the_check_reads_folders_and_refuses_dead_paths():
    # A module named by its folder on the same line is named; the same name elsewhere is not.
    text = "| `games/views/` | `sheet.py` (the phone's sheet) |\n| other | `room.py` |"
    assert "games/views/sheet.py" in named_paths(text)
    assert "games/views/room.py" not in named_paths(text)
    assert dead_paths(text) == ["line 2: `room.py`"]
    assert dead_paths("`games/nowhere.py`, `*/views/`, `games/dealforms/<game>.py`") == [
        "line 1: `games/nowhere.py`"
    ]
