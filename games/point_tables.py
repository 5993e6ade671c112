"""Point tables as a club reads them: the Belgian whist grid (a row per contract and bid, a
column per trick count, declarer's points over each defender's), a formula row, the few values
of the other games, what changes between two versions, the engine's properties checked before
anything is saved, and a club's own version of a shared table.

A club admin never edits another club's table: the first change of a shared (preset) table
makes the club's own copy, the next version of it, which only his club's nights use."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from club.models import Club
from scoring.engine.errors import EngineError
from scoring.engine.games.belgian_whist import GAME as GRID_GAME
from scoring.engine.tables import PRESET_GAME, load_table

from .labels import CONTRACT_LABELS
from .models import PointTable, Tournament
from .services import point_table_for_preset, point_table_revise

TRICK_COUNTS = range(14)
# Misères and piccolo are made at exactly their number of tricks (scoring-rules.md §1.2);
# every other contract at its number or more.
EXACT_CONTRACTS = frozenset({"petite_misere", "grande_misere", "grande_misere_table", "piccolo"})


@dataclass(frozen=True)
class GridCell:
    tricks: int
    declarer: int
    defender: int
    made: bool
    # Petite misère is played on 12 tricks: its 13th column cannot happen.
    playable: bool


@dataclass(frozen=True)
class GridRow:
    index: int
    contract: str
    bid: int | None
    side: str
    needed: int
    cells: tuple[GridCell, ...]

    @property
    def label(self) -> str:
        name = str(CONTRACT_LABELS.get(self.contract, self.contract))
        return f"{name} {self.bid}" if self.bid is not None else name


def is_made(contract: str, needed: int, tricks: int) -> bool:
    return tricks == needed if contract in EXACT_CONTRACTS else tricks >= needed


def grid(data: Mapping[str, Any]) -> list[GridRow]:
    """A Belgian whist table's rows as the grid shows them."""
    rows = []
    for index, row in enumerate(data.get("rows", [])):
        deal_tricks = row.get("deal_tricks", 13)
        rows.append(
            GridRow(
                index=index,
                contract=row["contract"],
                bid=row.get("bid"),
                side=row["side"],
                needed=row["needed"],
                cells=tuple(
                    GridCell(
                        tricks=t,
                        declarer=row["declarer"][t],
                        defender=row["defender"][t],
                        made=is_made(row["contract"], row["needed"], t),
                        playable=t <= deal_tricks,
                    )
                    for t in TRICK_COUNTS
                ),
            )
        )
    return rows


def grid_with(
    data: Mapping[str, Any], cells: Mapping[tuple[int, int], tuple[int, int]]
) -> dict[str, Any]:
    """The table with these cells changed: (row index, tricks) → (declarer, defender)."""
    new = copy.deepcopy(dict(data))
    for (index, tricks), (declarer, defender) in cells.items():
        row = new["rows"][index]
        row["declarer"][tricks] = declarer
        row["defender"][tricks] = defender
    return new


def formula_points(
    row: Mapping[str, Any], made: int, per_over: int, failed: int, per_under: int
) -> tuple[list[int], list[int]]:
    """A row from the club's formula: "+4, +1 per overtrick; −6, −2 per undertrick" is
    ``made=4, per_over=1, failed=6, per_under=2``, for each declarer; the defenders pay what
    the declarers win (a solo is paid by three defenders: he gets three times a defender's)."""
    needed, contract = row["needed"], row["contract"]
    units = []
    for t in TRICK_COUNTS:
        if is_made(contract, needed, t):
            units.append(made + per_over * max(0, t - needed))
        else:
            units.append(-(failed + per_under * max(0, abs(needed - t) - 1)))
    if row["side"] == "solo":
        return [3 * u for u in units], [-u for u in units]
    return units, [-u for u in units]


def grid_with_formula(
    data: Mapping[str, Any], index: int, made: int, per_over: int, failed: int, per_under: int
) -> dict[str, Any]:
    new = copy.deepcopy(dict(data))
    try:
        row = new["rows"][index]
    except (IndexError, KeyError):
        raise ValidationError(_("Ce tableau n'a pas de ligne %(n)s.") % {"n": index + 1}) from None
    row["declarer"], row["defender"] = formula_points(row, made, per_over, failed, per_under)
    return new


def _row_name(row: Mapping[str, Any]) -> str:
    name = str(CONTRACT_LABELS.get(row.get("contract", ""), row.get("contract", "")))
    return f"{name} {row['bid']}" if row.get("bid") is not None else name


def grid_problems(data: Mapping[str, Any]) -> list[str]:
    """What the engine's properties (tests/engine/test_properties.py) say of a Belgian whist
    grid, in words: each deal is zero-sum at a table of four, a made contract pays its
    declarers and a failed one costs them, and more tricks never give them fewer points."""
    problems = []
    for row in data.get("rows", []):
        name = _row_name(row)
        declarers = 2 if row["side"] == "pair" else 1
        top = row.get("deal_tricks", 13)
        points = row["declarer"][: top + 1]
        for t in range(top + 1):
            total = declarers * row["declarer"][t] + (4 - declarers) * row["defender"][t]
            if data.get("zero_sum") and total:
                problems.append(
                    _(
                        "%(row)s, %(tricks)s plis : %(declarers)s × %(declarer)s + "
                        "%(defenders)s × %(defender)s = %(total)s, pas 0 (la donne doit "
                        "s'équilibrer)."
                    )
                    % {
                        "row": name,
                        "tricks": t,
                        "declarers": declarers,
                        "declarer": row["declarer"][t],
                        "defenders": 4 - declarers,
                        "defender": row["defender"][t],
                        "total": total,
                    }
                )
            made = is_made(row["contract"], row["needed"], t)
            if made and points[t] <= 0:
                problems.append(
                    _("%(row)s, %(tricks)s plis : un contrat réussi doit rapporter des points.")
                    % {"row": name, "tricks": t}
                )
            if not made and points[t] >= 0:
                problems.append(
                    _("%(row)s, %(tricks)s plis : un contrat chuté doit coûter des points.")
                    % {"row": name, "tricks": t}
                )
        if row["contract"] not in EXACT_CONTRACTS:
            for t in range(1, top + 1):
                if points[t] < points[t - 1]:
                    problems.append(
                        _(
                            "%(row)s : %(more)s plis rapportent moins que %(fewer)s plis "
                            "(%(low)s < %(high)s)."
                        )
                        % {
                            "row": name,
                            "more": t,
                            "fewer": t - 1,
                            "low": points[t],
                            "high": points[t - 1],
                        }
                    )
    return problems


def table_problems(data: Mapping[str, Any]) -> list[str]:
    """Why this table cannot be saved: its properties in the club's words, then the engine's
    own refusal (a table the grid cannot even read is the engine's to describe)."""
    if data.get("game") == GRID_GAME:
        try:
            problems = grid_problems(data)
        except (KeyError, TypeError, IndexError, AttributeError):
            problems = []
        if problems:
            return problems
    try:
        load_table(data)
    except EngineError as error:
        return [str(error)]
    return []


# The other games: their few values, as a form.


def table_values(data: Mapping[str, Any]) -> dict[str, int]:
    """The numbers a table of another game is made of (its top-level whole numbers)."""
    return {
        key: value
        for key, value in data.items()
        if isinstance(value, int) and not isinstance(value, bool)
    }


def values_with(data: Mapping[str, Any], values: Mapping[str, int]) -> dict[str, Any]:
    new = copy.deepcopy(dict(data))
    known = table_values(data)
    for key, value in values.items():
        if key not in known:
            raise ValidationError(_("Ce tableau n'a pas de valeur « %(key)s ».") % {"key": key})
        new[key] = value
    return new


# What changes between two versions


@dataclass(frozen=True)
class CellChange:
    row: str
    tricks: int | None  # None: a value of another game's table
    before: str
    after: str


def table_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[CellChange]:
    """The cells (or values) that differ, as "declarer / defender" for the grid."""
    changes = []
    if old.get("game") == GRID_GAME and new.get("game") == GRID_GAME:
        old_rows = {(r["contract"], r.get("bid")): r for r in old.get("rows", [])}
        for row in new.get("rows", []):
            before = old_rows.get((row["contract"], row.get("bid")))
            for t in TRICK_COUNTS:
                after_cell = (row["declarer"][t], row["defender"][t])
                before_cell = (before["declarer"][t], before["defender"][t]) if before else None
                if after_cell != before_cell:
                    changes.append(
                        CellChange(
                            _row_name(row),
                            t,
                            "—" if before_cell is None else "{} / {}".format(*before_cell),
                            "{} / {}".format(*after_cell),
                        )
                    )
        return changes
    old_values, new_values = table_values(old), table_values(new)
    for key in sorted(set(old_values) | set(new_values)):
        if old_values.get(key) != new_values.get(key):
            changes.append(
                CellChange(key, None, str(old_values.get(key, "—")), str(new_values.get(key, "—")))
            )
    return changes


@dataclass(frozen=True)
class SideBySide:
    """Two versions of a grid, row by row, each cell with whether it differs."""

    rows: list[tuple[GridRow, GridRow | None, list[bool]]]


def side_by_side(old: Mapping[str, Any], new: Mapping[str, Any]) -> SideBySide:
    old_rows = {(r.contract, r.bid): r for r in grid(old)}
    rows = []
    for row in grid(new):
        before = old_rows.get((row.contract, row.bid))
        differs = [
            before is None or (c.declarer, c.defender) != (b.declarer, b.defender)
            for c, b in zip(row.cells, before.cells if before else row.cells, strict=True)
        ]
        rows.append((row, before, differs))
    return SideBySide(rows)


# The club's tables


def _club_may_see(club: Club) -> Q:
    """The tables a club may read: its own, the shared presets, and a shared custom table
    only where its own nights used it (another club's imported table is that club's)."""
    return (
        Q(club=club)
        | Q(club__isnull=True, name__in=list(PRESET_GAME))
        | Q(club__isnull=True, pk__in=Tournament.objects.filter(club=club).values("point_table"))
    )


def club_point_tables(club: Club) -> list[PointTable]:
    """The latest version of each table the club may play: its own where it has one, else the
    shared one, the club's default first."""
    latest: dict[str, PointTable] = {}
    for table in PointTable.objects.filter(_club_may_see(club)).order_by("name", "-version"):
        current = latest.get(table.name)
        if current is None or (table.club_id and not current.club_id):
            latest[table.name] = table
    for name, game in PRESET_GAME.items():
        # A preset no night has used yet is not stored: listed as its first version, stored
        # the first time it is opened or played.
        latest.setdefault(name, PointTable(game=game, name=name, version=1))
    return sorted(latest.values(), key=lambda t: (t.name != club.default_rules, t.game, t.name))


def club_table_versions(club: Club, name: str) -> list[PointTable]:
    """Every version of a table the club has played or may play, newest first."""
    return list(
        PointTable.objects.filter(_club_may_see(club), name=name).order_by("-version", "club")
    )


def club_current_table(club: Club, name: str) -> PointTable | None:
    """The version of table ``name`` the club's next nights use: its own latest, else the
    shared one (a preset is stored the first time it is asked for); None for a table the club
    may not see."""
    if name in PRESET_GAME:
        return point_table_for_preset(name, club)
    versions = club_table_versions(club, name)
    return next((v for v in versions if v.club_id), versions[0] if versions else None)


def stale_refusal() -> str:
    return _(
        "Ce tableau a changé depuis que vous l'avez ouvert (un autre administrateur, ou un "
        "autre onglet, l'a enregistré) : rechargez la page et refaites votre changement."
    )


@transaction.atomic
def point_table_club_save(
    club: Club, point_table: PointTable, data: dict[str, Any], *, based_on: str | None = None
) -> PointTable:
    """Save a club admin's change of a table, once the engine and its properties accept it.

    A shared table becomes the club's own next version (other clubs keep theirs); the club's
    own table follows the rule of every table: edited in place while no deal was scored with
    it, else a new version. Returns the version the club's next nights use.

    ``based_on``: the checksum of the version the admin's form showed. The table is locked,
    then a form shown before another save (another tab, another admin) is refused in words
    rather than silently overwriting that save."""
    if point_table.club_id not in (None, club.pk):
        raise ValidationError(_("Ce tableau des points est celui d'un autre club."))
    if problems := table_problems(data):
        raise ValidationError(problems)
    if data.get("game") != point_table.game:
        raise ValidationError(_("Un tableau des points ne change pas de jeu."))
    point_table = PointTable.objects.select_for_update().get(pk=point_table.pk)
    current = club_current_table(club, point_table.name)
    if (current is not None and current.pk != point_table.pk) or (
        based_on is not None and based_on != point_table.checksum
    ):
        raise ValidationError(stale_refusal())
    try:
        # A savepoint: a refused save leaves the caller's transaction usable.
        with transaction.atomic():
            return _club_save(club, point_table, data)
    except IntegrityError:
        # Two first saves of a shared table at once both make the club's next version: the
        # second is told, not shown a server error.
        raise ValidationError(stale_refusal()) from None


def _club_save(club: Club, point_table: PointTable, data: dict[str, Any]) -> PointTable:
    if point_table.club_id == club.pk:
        return point_table_revise(point_table, data)
    if data == point_table.data:
        return point_table
    latest = PointTable.objects.filter(
        Q(club=club) | Q(club__isnull=True), name=point_table.name
    ).aggregate(top=Max("version"))["top"]
    own = PointTable(
        club=club,
        game=point_table.game,
        name=point_table.name,
        version=(latest or point_table.version) + 1,
        label=point_table.label,
        data=data,
    )
    own.full_clean()
    own.save()
    return own
