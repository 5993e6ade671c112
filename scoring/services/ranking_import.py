"""A past season's published ranking brought in from its table: rank, name, points, nights
played. It has no nights behind it: it is stored as the season's published snapshot, marked
imported, and nothing recomputes it (a season that has nights refuses an import over it).

The table is read in two steps, both refused in the club's words with the line and the column
(``ranking_lines_read``, then ``ranking_import`` in one transaction: nothing is half-written).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player, Season, tidy_name
from club.services import published_pages_changed, season_create
from games.models import Tournament
from infra.outbox import TaskName, work_queue

from ..models import RankingLine, RankingSnapshot

# The columns a ranking's table is read by; rank, name and points are required.
COLUMNS = ("rank", "name", "points", "nights")
REQUIRED = ("rank", "name", "points")
NEW, SKIP = "new", "skip"

# "3", "3.", "3e", "3ème", "3=", "3 ex", "3 ex aequo": the rank as rankings print it.
_RANK = re.compile(r"(\d{1,4})\s*(?:\.|e|er|ère|eme|ème|è|=|ex\.?(?:\s*[aæ]equo)?)?", re.I)


@dataclass(frozen=True)
class ImportedLine:
    """One line of the table as read: ``line`` is its number in the table (1: the first)."""

    line: int
    rank: int
    name: str
    points: Fraction
    nights: int | None


def column_letter(index: int) -> str:
    """A column as a spreadsheet names it: 0 → "A", 26 → "AA"."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def points_read(text: str) -> Fraction | None:
    """Points as a ranking prints them ("123,5", "1 234"); None: not a number."""
    text = text.replace("\u00a0", "").replace("\u202f", "").replace(" ", "").replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return Fraction(number) if number.is_finite() else None


def ranking_lines_read(
    rows: Sequence[Sequence[str]],
    columns: Mapping[str, int | None],
    *,
    header: bool,
    labels: Sequence[str] = (),
) -> list[ImportedLine]:
    """The table's lines read by its columns (``columns``: rank, name, points, nights → the
    column's index; nights may be None). Blank lines are left out; every refusal names its line
    and its column, all at once. ``labels``: each column's header, for the refusals."""
    missing = [key for key in REQUIRED if columns.get(key) is None]
    if missing:
        raise ValidationError(_("Choisissez la colonne du rang, du nom et des points."))

    def where(line: int, key: str) -> str:
        index = columns[key]
        label = labels[index] if index < len(labels) and labels[index] else ""
        column = column_letter(index) + (f" (« {label} »)" if label else "")
        return _("Ligne %(line)s, colonne %(column)s") % {"line": line, "column": column}

    def cell(row: Sequence[str], key: str) -> str:
        index = columns.get(key)
        return (row[index] if index is not None and index < len(row) else "").strip()

    lines, problems = [], []
    for number, row in enumerate(rows, start=1):
        if (header and number == 1) or not any(str(value).strip() for value in row):
            continue
        name = tidy_name(cell(row, "name"))
        rank_text, points_text, nights_text = (cell(row, k) for k in ("rank", "points", "nights"))
        rank = _RANK.fullmatch(rank_text)
        points = points_read(points_text)
        if not name:
            problems.append(_("%(where)s : le nom est vide.") % {"where": where(number, "name")})
        elif len(name) > 120:
            problems.append(
                _("%(where)s : nom trop long (120 caractères au plus).")
                % {"where": where(number, "name")}
            )
        if rank is None or int(rank.group(1)) < 1:
            problems.append(
                _("%(where)s : « %(got)s » n'est pas un rang.")
                % {"where": where(number, "rank"), "got": rank_text}
            )
        if points is None or abs(points) >= 10**9:
            problems.append(
                _("%(where)s : « %(got)s » n'est pas un nombre de points.")
                % {"where": where(number, "points"), "got": points_text}
            )
        nights = None
        if nights_text:
            if nights_text.isascii() and nights_text.isdigit() and int(nights_text) < 1000:
                nights = int(nights_text)
            else:
                problems.append(
                    _("%(where)s : « %(got)s » n'est pas un nombre de soirées.")
                    % {"where": where(number, "nights"), "got": nights_text}
                )
        if rank is not None and points is not None and name:
            lines.append(ImportedLine(number, int(rank.group(1)), name, points, nights))
    if problems:
        raise ValidationError(problems)
    if not lines:
        raise ValidationError(_("Le tableau n'a aucune ligne à importer."))
    return lines


def season_dates_of(name: str) -> tuple[datetime.date, datetime.date] | None:
    """The dates a season's name gives: "2015" the calendar year, "2015-2016" both years."""
    years = [int(year) for year in re.findall(r"\b(\d{4})\b", name)]
    if not years:
        return None
    return datetime.date(min(years), 1, 1), datetime.date(max(years), 12, 31)


def _season_for_import(club: Club, name: str, start: datetime.date, end: datetime.date) -> Season:
    """The season the ranking goes to: the club's of that name when it has no night (an
    imported ranking there is replaced), else a new one with these dates."""
    name = " ".join(name.split())
    season = club.seasons.filter(name=name).first()
    if season is None:
        return season_create(club, name, start, end)
    if Tournament.objects.filter(season=season).exists():
        raise ValidationError(
            _(
                "La saison %(name)s a déjà des soirées : son classement se calcule à partir "
                "d'elles, un classement importé ne peut pas le remplacer."
            )
            % {"name": season.name}
        )
    RankingSnapshot.objects.filter(season=season).delete()
    return season


@transaction.atomic
def ranking_import(
    club: Club,
    season_name: str,
    start: datetime.date,
    end: datetime.date,
    lines: Sequence[ImportedLine],
    choices: Mapping[int, int | str],
    columns: Sequence[str] = COLUMNS,
) -> RankingSnapshot:
    """Store a past season's ranking as its published snapshot, marked imported.

    ``choices``: for each line (by its number), the club's player it is (his id), ``NEW`` (a
    new player, a former member of the club for that season) or ``SKIP``. A line without a
    choice is refused: the club admin decides every name. ``columns``: those the table's
    columns were chosen for, kept with the ranking. What the table does not give (game points,
    nights won, a blank nights cell) is stored unknown, NULL, never a zero. One transaction: a
    refusal leaves the club as it was."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    season = _season_for_import(club, season_name, start, end)
    known = {player.pk: player for player in Player.objects.in_club(club)}
    problems: list[str] = []
    taken: dict[int, int] = {}
    kept: list[tuple[ImportedLine, Player | None]] = []
    for line in lines:
        choice = choices.get(line.line)
        if choice == SKIP:
            continue
        if choice == NEW:
            kept.append((line, None))
            continue
        player = known.get(choice) if isinstance(choice, int) else None
        if player is None:
            problems.append(
                _(
                    "Ligne %(line)s : dites qui est « %(name)s » (un joueur du club, un nouveau "
                    "joueur, ou ne pas l'importer)."
                )
                % {"line": line.line, "name": line.name}
            )
        elif player.pk in taken:
            problems.append(
                _("Ligne %(line)s : %(player)s est déjà la ligne %(other)s.")
                % {"line": line.line, "player": player.display_name, "other": taken[player.pk]}
            )
        else:
            taken[player.pk] = line.line
            kept.append((line, player))
    if problems:
        raise ValidationError(problems)
    if not kept:
        raise ValidationError(_("Aucune ligne n'est importée : rien à enregistrer."))
    kept = _new_players(club, season, kept)
    kept.sort(key=lambda item: (item[0].rank, item[0].line))
    ranks = [line.rank for line, _player in kept]
    now = timezone.now()
    snapshot = RankingSnapshot.objects.create(
        season=season,
        computed_at=now,
        published_at=now,
        rules={},
        # What each player played does not say how many nights the season had.
        tournaments=None,
        imported=True,
        imported_columns=[key for key in COLUMNS if key in columns],
    )
    RankingLine.objects.bulk_create(
        RankingLine(
            snapshot=snapshot,
            player=player,
            rank=line.rank,
            tied=ranks.count(line.rank) > 1,
            position=position,
            tournament_points=line.points,
            game_points=None,
            tournaments_played=line.nights,
            tournaments_counted=line.nights,
            tournaments_won=None,
        )
        for position, (line, player) in enumerate(kept, start=1)
    )
    published_pages_changed(club.pk)
    # Published as the club published it then: its share picture too (clubsite.share).
    work_queue(TaskName.SEASON_SHARE_PICTURE, season.pk)
    return snapshot


def _new_players(
    club: Club, season: Season, kept: list[tuple[ImportedLine, Player | None]]
) -> list[tuple[ImportedLine, Player]]:
    """The lines' new players made, each a former member of the club for that season (his
    page shows his past; he joins again like any former member)."""
    made: list[tuple[ImportedLine, Player]] = []
    problems = []
    for line, player in kept:
        if player is None:
            first, _sep, last = line.name.partition(" ")
            player = Player(
                display_name=line.name, first_name=first, last_name=last, language=club.language
            )
            try:
                player.full_clean(validate_unique=False, validate_constraints=False)
            except ValidationError as refused:
                problems += [
                    _("Ligne %(line)s : %(why)s") % {"line": line.line, "why": message}
                    for message in refused.messages
                ]
                continue
            player.save()
            Membership.objects.create(
                club=club,
                player=player,
                start=season.start,
                end=season.end,
                status=Membership.Status.FORMER,
            )
        made.append((line, player))
    if problems:
        raise ValidationError(problems)
    return made
