"""The layout holds: every module of the project is either domain or interface (so that the
import contracts see a new module), no two modules import each other round in a cycle, and the
engine imports the standard library only."""

from __future__ import annotations

import ast
import fnmatch
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
# The site package, the plumbing under every app, and the apps.
APPS = ("config", "infra", "club", "games", "scoring", "clubsite", "front", "api")
# Neither domain nor interface: the site's wiring, the engine (its own contract), migrations.
WIRING = [
    "config.settings",
    "config.urls",
    "config.celery",
    "config.wsgi",
    "config.asgi",
    "*.apps",
    "*.migrations",
    "*.migrations.*",
    "scoring.engine",
    "scoring.engine.*",
]


def contract(name: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == name)


def matches(module: str, patterns: list[str]) -> bool:
    """A module matches a pattern, or sits inside a package that does."""
    return any(
        fnmatch.fnmatchcase(module, pattern) or fnmatch.fnmatchcase(module, pattern + ".*")
        for pattern in patterns
    )


def test_every_module_is_domain_or_interface():
    layers = contract("No domain module imports the interface")
    domain, interface = layers["source_modules"], layers["forbidden_modules"]
    graph = grimp.build_graph(*APPS)
    packages = {m for m in graph.modules if any(o.startswith(m + ".") for o in graph.modules)}
    unclassified = sorted(
        module
        for module in graph.modules
        if module not in APPS
        and module not in packages
        and not matches(module, domain + interface + WIRING)
    )
    assert unclassified == [], "add each to pyproject.toml's domain or interface lists"


def test_no_two_modules_import_each_other_round_in_a_cycle():
    graph = grimp.build_graph(*APPS)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in graph.modules:
                continue
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    assert cycles == []


def test_the_engine_imports_the_standard_library_only():
    foreign = []
    for path in (ROOT / "scoring" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and not name.startswith("scoring.engine"):
                    foreign.append(f"{path.relative_to(ROOT)}: {name}")
    assert foreign == []


# The house splits a module by topic past ~400 lines; none of the apps' modules (migrations
# aside) may grow past this without being split.
MODULE_LINES_MAX = 500


def test_no_module_of_the_apps_is_past_its_size():
    oversized = {
        str(path.relative_to(ROOT)): lines
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
        and (lines := len(path.read_text().splitlines())) > MODULE_LINES_MAX
    }
    assert oversized == {}, "split these by topic (docs/map.md)"


# The tests mirror the code: `tests/<app>/<folders>/test_<module>.py` tests `<app>/<folders>/
# <module>.py` (or the package `<module>/`), so a module's tests are found by its name. The
# browser's journeys (`e2e/`), the engine's games (`engine/`), the benchmarks and the production
# stage are grouped their own way; the files below test one rule at every door, not a module.
TESTED_APPS = ("club", "games", "scoring", "clubsite", "front", "api", "infra", "config")
TESTS_OF_NO_MODULE = {
    "games/test_deal_holds.py": "a deal's keys held alike by the API, the sheet, the service "
    "and the import",
    "games/test_tampered_input.py": "input no page sends, refused in words at every door",
    "games/test_misere_by_everyone.py": "one engine refusal said alike by the sheet, the API "
    "and the import",
    "games/test_four_phones_at_once.py": "the Quick start's SQLite (config/settings.py) under "
    "four phones recording through the sheet",
}


def test_every_test_file_of_an_app_is_named_after_one_of_its_modules():
    unmatched = []
    for app in TESTED_APPS:
        for path in sorted((ROOT / "tests" / app).rglob("test_*.py")):
            relative = path.relative_to(ROOT / "tests").as_posix()
            module = (
                ROOT / path.relative_to(ROOT / "tests").parent / path.stem.removeprefix("test_")
            )
            if relative in TESTS_OF_NO_MODULE:
                continue
            if not (module.with_suffix(".py").is_file() or (module / "__init__.py").is_file()):
                unmatched.append(relative)
    assert unmatched == [], "name each after the module it tests (or say why it tests none)"


def test_the_files_said_to_test_no_module_are_there():
    assert [name for name in TESTS_OF_NO_MODULE if not (ROOT / "tests" / name).is_file()] == []
