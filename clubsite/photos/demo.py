"""The demo club's album: a few photos drawn by Pillow (a colour, a line of text), each sent
as a phone would send it — a JPEG turned by its EXIF orientation and carrying a GPS position —
so that the Quick start shows what the site keeps of one: an upright picture, no EXIF."""

from __future__ import annotations

import datetime
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import ExifTags, Image, ImageDraw, ImageFont

from club.models import Club

from ..models import Album
from . import services

# The EXIF tags a phone writes that say where and how the picture was taken.
ORIENTATION = ExifTags.Base.Orientation
# The Grand-Place of Brussels: a position nobody should find in a served copy.
GPS_POSITION = {
    ExifTags.GPS.GPSLatitudeRef: "N",
    ExifTags.GPS.GPSLatitude: (50.0, 50.0, 48.0),
    ExifTags.GPS.GPSLongitudeRef: "E",
    ExifTags.GPS.GPSLongitude: (4.0, 21.0, 9.0),
}
DEMO_PHOTOS = [
    ("Table 1, première donne", "#1d4e89"),
    ("Un solo annoncé", "#7b2d26"),
    ("La pause", "#2f6b3a"),
    ("Le podium", "#8a6d1d"),
]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


def phone_jpeg(
    text: str,
    colour: str,
    size: tuple[int, int] = (1200, 900),
    *,
    gps: bool = True,
    orientation: int = 1,
) -> bytes:
    """A JPEG as a phone sends it: ``text`` on ``colour``, with an EXIF block (the camera's
    make, the GPS position when ``gps``, the ``orientation`` tag)."""
    image = Image.new("RGB", size, colour)
    draw = ImageDraw.Draw(image)
    margin = min(size) // 20
    draw.rectangle((margin, margin, size[0] - margin, size[1] - margin), outline="white", width=4)
    # In the middle, within the square a thumbnail keeps (the album crops it square), in a
    # font that has French accents when the system has one (Pillow's own has none).
    square = min(size) * 4 // 5
    font = _font(max(12, size[1] // 12))
    while draw.textlength(text, font=font) > square and font.size > 12:
        font = _font(font.size - 2)
    draw.text((size[0] // 2, size[1] // 2), text, fill="white", font=font, anchor="mm")
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "Phone 12"
    exif[ORIENTATION] = orientation
    if gps:
        exif.get_ifd(ExifTags.IFD.GPSInfo).update(GPS_POSITION)
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif, quality=80)
    return out.getvalue()


def demo_album(
    club: Club, date: datetime.date, photos: list[tuple[str, str]] | None = None
) -> Album:
    """A demo club's album of a night (``photos``: each one's line of text and colour), its
    photos copied at once (the tasks run eagerly on a laptop; the demo command commits as it
    goes)."""
    album = Album.objects.filter(club=club).first()
    if album is not None:
        return album
    night = club.tournaments.filter(date__lte=date).order_by("-date").first()
    album = services.album_create(
        club, "Soirée du club", night.date if night else date, night=night
    )
    files = [
        SimpleUploadedFile(f"IMG_{n:04}.jpg", phone_jpeg(text, colour), "image/jpeg")
        for n, (text, colour) in enumerate(photos or DEMO_PHOTOS, start=1)
    ]
    services.photos_upload(album, files, None)
    return album
