"""One line of an imported ranking corrected by the club admin: the table had a typo, a name
was matched to the wrong player, or the secretary found the game points in an old binder.

Only an imported ranking is corrected line by line: a ranking computed from nights is
corrected through its nights. What is left blank stays unknown (NULL), never a zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from club.models import Player
from club.services import published_pages_changed
from infra.outbox import TaskName, work_queue

from ..models import RankingLine, RankingSnapshot

# As the import reads them (``ranking_lines_read``).
MOST_POINTS = 10**9
MOST_NIGHTS = 999


@dataclass(frozen=True)
class LineFigures:
    """What the club admin says the line is; None: unknown."""

    rank: int
    player: Player
    tournament_points: Fraction
    game_points: int | None = None
    tournaments_played: int | None = None
    tournaments_won: int | None = None


def _problems(figures: LineFigures, taken: dict[int, int], line: RankingLine) -> list[str]:
    problems = []
    if figures.rank < 1:
        problems.append(_("Le rang est un nombre entier à partir de 1."))
    if abs(figures.tournament_points) >= MOST_POINTS or (
        figures.game_points is not None and abs(figures.game_points) >= MOST_POINTS
    ):
        problems.append(_("Les points doivent rester sous le milliard."))
    for nights in (figures.tournaments_played, figures.tournaments_won):
        if nights is not None and not 0 <= nights <= MOST_NIGHTS:
            problems.append(_("Un nombre de soirées va de 0 à 999."))
            break
    played, won = figures.tournaments_played, figures.tournaments_won
    if played is not None and won is not None and won > played:
        problems.append(
            _("%(won)s soirées gagnées sur %(played)s jouées : c'est impossible.")
            % {"won": won, "played": played}
        )
    other = taken.get(figures.player.pk)
    if other is not None and other != line.pk:
        problems.append(
            _("%(player)s a déjà sa ligne dans ce classement.")
            % {"player": figures.player.display_name}
        )
    return problems


@transaction.atomic
def imported_line_correct(line: RankingLine, figures: LineFigures) -> RankingLine:
    """Correct one line of an imported ranking, in one transaction: its figures, its player
    (one of the club's), its rank (the ranking's order and its ties follow). Refused in words,
    all at once; nothing is written then. The club's published pages show it at once."""
    snapshot = (
        RankingSnapshot.objects.select_for_update()
        .select_related("season")
        .get(pk=line.snapshot_id)
    )
    if not snapshot.imported:
        raise ValidationError(
            _(
                "Ce classement est calculé à partir des soirées : corrigez la soirée, pas la "
                "ligne. Seul un classement importé se corrige ligne par ligne."
            )
        )
    club_id = snapshot.season.club_id
    if (
        not Player.objects.filter(memberships__club_id=club_id)
        .filter(pk=figures.player.pk)
        .exists()
    ):
        raise ValidationError(
            _("%(player)s n'est pas un joueur du club.") % {"player": figures.player.display_name}
        )
    lines = list(RankingLine.objects.filter(snapshot=snapshot).order_by("position"))
    line = next(other for other in lines if other.pk == line.pk)
    problems = _problems(figures, {other.player_id: other.pk for other in lines}, line)
    if problems:
        raise ValidationError(problems)
    line.player = figures.player
    line.rank = figures.rank
    line.tournament_points = figures.tournament_points
    line.game_points = figures.game_points
    # An imported table counts every night played: none is left out of a best n.
    line.tournaments_played = line.tournaments_counted = figures.tournaments_played
    line.tournaments_won = figures.tournaments_won
    line.save()
    _ranking_order(lines)
    published_pages_changed(club_id)
    # Its podium may have changed: its share picture drawn again (clubsite.share).
    work_queue(TaskName.SEASON_SHARE_PICTURE, snapshot.season_id)
    return line


def _ranking_order(lines: list[RankingLine]) -> None:
    """The lines in rank order (the former order between equal ranks), each tie marked."""
    ordered = sorted(lines, key=lambda line: (line.rank, line.position))
    ranks = [line.rank for line in ordered]
    changed = [
        line
        for position, line in enumerate(ordered, start=1)
        if (line.position, line.tied) != (position, ranks.count(line.rank) > 1)
    ]
    if not changed:
        return
    # Each position is unique at every moment: the lines move out of the way first.
    RankingLine.objects.filter(pk__in=[line.pk for line in lines]).update(
        position=F("position") + max(line.position for line in lines)
    )
    for position, line in enumerate(ordered, start=1):
        line.position, line.tied = position, ranks.count(line.rank) > 1
    RankingLine.objects.bulk_update(ordered, ["position", "tied"])
