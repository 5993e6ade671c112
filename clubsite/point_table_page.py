"""The club's point table as a public page (instead of the PDF a club used to post): the table
its current season's nights are scored with, as the point-table editor reads it
(``games.point_tables``), each contract linked to its rule in the club's « Règles du jeu »
page when that page has a heading of the contract's name.

Read only: a preset the site never stored yet is read from its shipped file, not stored on a
visitor's request."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils import translation

from club.models import Club, Season
from games import point_tables
from games.labels import CONTRACT_LABELS
from games.models import PointTable
from infra.slugs import slug_of
from scoring.engine.tables import PRESET_GAME, preset_data

from .models import Page

# The page whose headings explain the contracts: « Règles du jeu » by its title's address.
RULES_SLUG = "regles-du-jeu"
HEADING_ID = re.compile(r'<h[1-6] id="([a-z0-9-]+)"')
# The other games' values, named as their rules name them (the rest shown by their key).
VALUE_LABELS = {
    "heart": translation.gettext_lazy("Chaque cœur"),
    "queen_of_spades": translation.gettext_lazy("La dame de pique"),
    "revoke": translation.gettext_lazy("Une renonce"),
    "partie_deals": translation.gettext_lazy("Donnes par partie"),
}


@dataclass(frozen=True)
class ContractRow:
    row: point_tables.GridRow
    # The contract's rule in « Règles du jeu »; empty when the page does not explain it.
    rule_url: str


@dataclass(frozen=True)
class PointTablePage:
    table: PointTable
    season: Season | None
    rows: list[ContractRow]
    values: list[tuple[str, int]]
    rules_url: str


def season_of(club: Club, today: datetime.date) -> Season | None:
    """The season under way, else the latest one."""
    seasons = club.seasons.order_by("-start")
    return seasons.filter(start__lte=today, end__gte=today).first() or seasons.first()


def season_table(club: Club, season: Season | None) -> PointTable:
    """The version the season's next nights are scored with: the club's own latest, else the
    site's stored latest, else the shipped preset (left unstored)."""
    name = (season.default_rules if season else "") or club.default_rules
    stored = PointTable.objects.filter(name=name).filter(club=club).order_by("-version").first()
    stored = (
        stored
        or PointTable.objects.filter(name=name, club__isnull=True).order_by("-version").first()
    )
    if stored is not None:
        return stored
    data = preset_data(name)
    return PointTable(
        game=PRESET_GAME[name], name=name, version=1, label=data.get("label", name), data=data
    )


def _anchor(contract: str, anchors: set[str]) -> str:
    """The heading of the contract in the rules page, in French or the reader's language."""
    with translation.override("fr"):
        french = slug_of(str(CONTRACT_LABELS.get(contract, contract)))
    for anchor in (french, slug_of(str(CONTRACT_LABELS.get(contract, contract))), contract):
        if anchor in anchors:
            return anchor
    return ""


def point_table_page(club: Club, today: datetime.date, member: bool) -> PointTablePage:
    season = season_of(club, today)
    table = season_table(club, season)
    rules = (
        Page.objects.filter(club=club, slug=RULES_SLUG).seen_by(member).only("html", "slug").first()
    )
    rules_url = reverse("site-page", args=[club.slug, rules.slug]) if rules else ""
    anchors = set(HEADING_ID.findall(rules.html)) if rules else set()
    data: dict[str, Any] = table.data
    rows = []
    values: list[tuple[str, int]] = []
    if table.game == point_tables.GRID_GAME:
        for row in point_tables.grid(data):
            anchor = _anchor(row.contract, anchors)
            rows.append(ContractRow(row, f"{rules_url}#{anchor}" if anchor else ""))
    else:
        values = [
            (str(VALUE_LABELS.get(key, key)), value)
            for key, value in point_tables.table_values(data).items()
        ]
    return PointTablePage(table, season, rows, values, rules_url)
