"""A night's and a season's share picture: a PNG of the podium (the club's name, the night or
the season, the top three with their points) that a messaging app shows when a link to the
results or the ranking is pasted (the page's ``og:image``).

Drawn once per publication, by a task the publishing service queues (``clubsite.tasks``): the
pages only name the file. Stored through Django's storage API (the file system on one host,
object storage on several) under a name fixed by what it shows, so a page finds it without a
query; a new publication draws it again over the old one. The picture is public: players
are named as the public reads them (``club.names.PUBLIC``: initials for who chose them), in
the club's language. The font: Debian's DejaVu Sans where it is installed (fonts-dejavu-core:
every accent), else Pillow's own scalable font, which needs nothing installed but has ASCII
letters only — the text is then written without its accents ("Soiree", "Coeurs").
"""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import translation
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from club.models import Club, Season
from club.names import PUBLIC, name_shown
from games.models import Tournament
from scoring.engine.standings import points_text
from scoring.models import RankingSnapshot, TournamentStanding

# Open Graph's preferred size: the messaging apps crop nothing at 1.91 : 1.
SIZE = (1200, 630)
BACKGROUND, INK, MUTED = "#7a1f2b", "#ffffff", "#f1d9dc"
# Gold, silver, bronze steps, from left to right as a podium stands: second, first, third.
STEPS = {1: ("#d4a017", 260), 2: ("#c0c0c0", 200), 3: ("#cd7f32", 160)}
# A few colours only: saved as a palette PNG, the picture is a few tens of kB.
COLOURS = 32
# Debian's fonts-dejavu-core; absent (a slim container, a CI machine), Pillow's own font.
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# What the ASCII-only font cannot draw, said with the letters it has.
_ASCII = str.maketrans(
    {
        "œ": "oe",
        "Œ": "OE",
        "æ": "ae",
        "Æ": "AE",
        "ß": "ss",
        "–": "-",
        "—": "-",
        "’": "'",
        "«": '"',
        "»": '"',
        "\u00a0": " ",
        "\u202f": " ",
    }
)


@dataclass(frozen=True)
class Podium:
    """What the picture says: the club, the night or season, and up to three places."""

    club: str
    title: str
    places: list[tuple[int, str, str]]  # rank, name, points


def night_picture_name(tournament: Tournament) -> str:
    return f"share/{tournament.club_id}/soiree-{tournament.pk}.png"


def season_picture_name(season: Season) -> str:
    return f"share/{season.club_id}/classement-{season.pk}.png"


def _points(value: Fraction) -> str:
    return points_text(value, get_format("DECIMAL_SEPARATOR"))


def night_podium(tournament: Tournament) -> Podium:
    standings = TournamentStanding.objects.of_tournament(tournament).filter(rank__lte=3)[:3]
    day = date_format(tournament.date, "j F Y")
    title = _("Soirée du %(date)s") % {"date": day}
    if tournament.name:
        # A night's name often says its date already ("Soirée des cœurs du 3 juin 2025").
        title = tournament.name if day in tournament.name else f"{tournament.name} – {day}"
    return Podium(
        club=tournament.club.name,
        title=title,
        places=[
            (s.rank, name_shown(s.player, PUBLIC), _points(s.tournament_points)) for s in standings
        ],
    )


def season_podium(snapshot: RankingSnapshot) -> Podium:
    lines = snapshot.lines.in_order().filter(rank__isnull=False, rank__lte=3)[:3]
    return Podium(
        club=snapshot.season.club.name,
        title=_("Classement %(name)s") % {"name": snapshot.season.name},
        places=[
            (ln.rank, name_shown(ln.player, PUBLIC), _points(ln.tournament_points)) for ln in lines
        ],
    )


@cache
def _font(size: int, path: Path = DEJAVU) -> ImageFont.FreeTypeFont:
    if path.is_file():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def drawable(text: str, path: Path = DEJAVU) -> str:
    """``text`` as the font can draw it: as it is with DejaVu, else in ASCII letters."""
    if path.is_file():
        return text
    folded = unicodedata.normalize("NFKD", text.translate(_ASCII))
    return folded.encode("ascii", "ignore").decode()


def _fitted(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> ImageFont.FreeTypeFont:
    """The font at ``size``, smaller until ``text`` fits ``width``."""
    while True:
        font = _font(size)
        if size <= 14 or draw.textlength(text, font=font) <= width:
            return font
        size -= 2


def podium_png(podium: Podium) -> bytes:
    """The podium drawn as a PNG."""
    podium = Podium(
        drawable(podium.club),
        drawable(podium.title),
        [(rank, drawable(name), points) for rank, name, points in podium.places],
    )
    image = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    width, height = SIZE
    margin = 48
    draw.text(
        (margin, 40), podium.club, fill=INK, font=_fitted(draw, podium.club, 56, width - 2 * margin)
    )
    draw.text(
        (margin, 112),
        podium.title,
        fill=MUTED,
        font=_fitted(draw, podium.title, 40, width - 2 * margin),
    )
    column = (width - 2 * margin) // 3
    order = {2: 0, 1: 1, 3: 2}  # the podium's columns, left to right
    for position, (rank, name, points) in enumerate(podium.places, start=1):
        step = min(rank, 3)
        colour, step_height = STEPS[step]
        left = margin + order[position] * column + 12
        right = left + column - 24
        top = height - 40 - step_height
        draw.rectangle((left, top, right, height - 40), fill=colour)
        draw.text(
            ((left + right) / 2, top + step_height / 2),
            str(rank),
            fill=BACKGROUND,
            font=_font(72),
            anchor="mm",
        )
        draw.text(
            ((left + right) / 2, top - 70),
            name,
            fill=INK,
            font=_fitted(draw, name, 36, right - left),
            anchor="mm",
        )
        draw.text(
            ((left + right) / 2, top - 28),
            _("%(points)s pts") % {"points": points},
            fill=MUTED,
            font=_font(30),
            anchor="mm",
        )
    out = io.BytesIO()
    image.quantize(colors=COLOURS).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _stored(name: str, podium: Podium | None) -> None:
    # The same name again: the old picture goes first (the storage would pick another name).
    if default_storage.exists(name):
        default_storage.delete(name)
    if podium is not None and podium.places:
        default_storage.save(name, ContentFile(podium_png(podium)))


def night_picture_store(tournament: Tournament) -> None:
    """The night's picture drawn when it is published; removed when it is not (taken back:
    its podium is nobody's to see any more)."""
    published = tournament.status == Tournament.Status.PUBLISHED
    with translation.override(tournament.club.language):
        _stored(night_picture_name(tournament), night_podium(tournament) if published else None)


def season_picture_store(season: Season) -> None:
    """The season's picture, from its latest published ranking."""
    snapshot = RankingSnapshot.objects.filter(season=season).latest_published().first()
    with translation.override(season.club.language):
        _stored(season_picture_name(season), season_podium(snapshot) if snapshot else None)


def picture_url(name: str, club: Club) -> str | None:
    """The stored picture's address, or None when there is none. The club's stamp in it: a
    picture drawn again is a new address for the apps that keep the old one."""
    if not default_storage.exists(name):
        return None
    url = default_storage.url(name)
    # An object store's address may hold its own query (a signed link).
    return f"{url}{'&' if '?' in url else '?'}v={int(club.pages_changed.timestamp())}"
