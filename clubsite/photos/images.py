"""What a photo sent by a club's admin must be, checked before anything is decoded, and the
cleaned copies made of it.

The checks run in the order of their cost: the file's size (nothing read), the format from
the first bytes, the pixel count and the shape from the header alone (``Image.open`` reads no
pixel), then one decode at an eighth of the size for a JPEG (its whole stream is read, so a
truncated file is found) — never a full decode of an image the caps refuse.

Every copy is drawn from the upright picture (``ImageOps.exif_transpose``: a phone writes the
pixels as the sensor saw them and says the turn in EXIF) and saved with no metadata at all:
no EXIF (the GPS position, the phone, the time), no XMP, no comment. Only the colour profile
stays, so that a phone's wide-gamut photo keeps its colours."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from PIL import Image, ImageFile, ImageOps

# A phone's photo is 2 to 8 MB; 20 MB leaves room for a 50-megapixel one.
MAX_BYTES = 20 * 1024 * 1024
# 40 megapixels: more than any phone's sensor, and what a worker may decode (4 bytes a pixel,
# 160 MB) without running a small server out of memory.
MAX_PIXELS = 40_000_000
# A panorama is 4 or 5 times as wide as it is high; a 1 × 100 000 strip is no photo.
MAX_ASPECT = 20
# Pillow's own guard: a warning past MAX_PIXELS, an error past twice as many, whatever a
# caller forgets. Our check reads the header first and refuses in words; the member's photo
# (club.profile, 25 megapixels at most) stays under it too.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

# Pillow's name of the formats taken → the extension and content type of the full-size copy.
FORMATS = {
    "JPEG": ("jpg", "image/jpeg"),
    "PNG": ("png", "image/png"),
    "WEBP": ("webp", "image/webp"),
}
# The ISO base media file's brands of the pictures Pillow cannot read without a plug-in (HEIF,
# an iPhone's « haute efficacité »; AVIF). Named in the refusal: the admin knows what to change.
HEIF_BRANDS = {
    b"heic": "HEIC",
    b"heix": "HEIC",
    b"hevc": "HEIC",
    b"heim": "HEIC",
    b"heis": "HEIC",
    b"mif1": "HEIF",
    b"msf1": "HEIF",
    b"avif": "AVIF",
    b"avis": "AVIF",
}

# The copies: a thumbnail for the album's grid (shown 200 CSS pixels wide on a phone of
# pixel ratio 2), and a phone's screen.
THUMB_SIDE = 400
PHONE_SIDE = 1600
JPEG_QUALITY = 85


class PhotoRefused(ValueError):
    """A photo refused, with the reason in the admin's words (already translated)."""


@dataclass(frozen=True)
class Checked:
    format: str
    width: int
    height: int


@contextmanager
def _bombs_refused() -> Iterator[None]:
    """Pillow's decompression-bomb warning raised as an error, so it is refused, not decoded."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        yield


def _heif_brand(head: bytes) -> str | None:
    if head[4:8] != b"ftyp":
        return None
    return HEIF_BRANDS.get(head[8:12])


def photo_checked(upload: IO[bytes], size: int, name: str) -> Checked:
    """The photo ``upload`` (``size`` bytes, sent as ``name``), or ``PhotoRefused`` saying
    why. Reads the file; leaves it at its start."""
    if size > MAX_BYTES:
        raise PhotoRefused(
            _("%(name)s pèse %(size)s : %(limit)s au plus par photo.")
            % {"name": name, "size": filesizeformat(size), "limit": filesizeformat(MAX_BYTES)}
        )
    if size == 0:
        raise PhotoRefused(_("%(name)s est vide.") % {"name": name})
    upload.seek(0)
    brand = _heif_brand(upload.read(12))
    upload.seek(0)
    if brand:
        raise PhotoRefused(
            _(
                "%(name)s est une image %(format)s, que le site ne lit pas : envoyez-la en "
                "JPEG (sur un iPhone, Réglages › Appareil photo › Formats › « Le plus "
                "compatible »)."
            )
            % {"name": name, "format": brand}
        )
    try:
        with _bombs_refused(), Image.open(upload) as image:
            found = image.format or "?"
            width, height = image.size  # the header's word: nothing decoded yet
            if found not in FORMATS:
                raise PhotoRefused(
                    _(
                        "%(name)s est une image %(format)s : le site prend les photos JPEG, "
                        "PNG ou WebP."
                    )
                    % {"name": name, "format": found}
                )
            _caps_checked(name, width, height)
            if found == "JPEG":
                # An eighth of the size is enough to read the whole stream: a cut file fails.
                image.draft("RGB", (max(1, width // 8), max(1, height // 8)))
            image.load()
    except PhotoRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels(name) from None
    except Exception:
        # Pillow says "not an image" or "truncated" in many ways (OSError, SyntaxError,
        # UnidentifiedImageError…): for the admin they all mean the file cannot be read.
        raise PhotoRefused(
            _("%(name)s n'est pas une image lisible (pas une photo, ou un fichier incomplet).")
            % {"name": name}
        ) from None
    finally:
        upload.seek(0)
    return Checked(found, width, height)


def _too_many_pixels(name: str) -> PhotoRefused:
    return PhotoRefused(
        _("%(name)s a trop de pixels : %(limit)s mégapixels au plus.")
        % {"name": name, "limit": MAX_PIXELS // 1_000_000}
    )


def _caps_checked(name: str, width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise _too_many_pixels(name)
    if max(width, height) > MAX_ASPECT * max(1, min(width, height)):
        raise PhotoRefused(
            _("%(name)s est trop allongée (%(width)s × %(height)s pixels) pour une photo.")
            % {"name": name, "width": width, "height": height}
        )


@dataclass(frozen=True)
class Copy:
    data: bytes
    extension: str
    content_type: str
    width: int
    height: int


def _clean(image: Image.Image) -> Image.Image:
    """The picture alone: upright, every metadata dropped but its colour profile."""
    upright = ImageOps.exif_transpose(image)
    profile = image.info.get("icc_profile")
    upright.info = {"icc_profile": profile} if profile else {}
    return upright


def _saved(image: Image.Image, format: str) -> bytes:
    out = io.BytesIO()
    options: dict = {"exif": b""}
    if image.info.get("icc_profile"):
        options["icc_profile"] = image.info["icc_profile"]
    if format == "JPEG":
        options.update(quality=JPEG_QUALITY, optimize=True)
    image.save(out, format=format, **options)
    return out.getvalue()


def _as_jpeg(image: Image.Image) -> Image.Image:
    """A copy a JPEG can hold: transparency laid on white."""
    if image.mode in ("RGB", "L"):
        return image
    rgba = image.convert("RGBA")
    flat = Image.new("RGB", rgba.size, "white")
    flat.paste(rgba, mask=rgba.getchannel("A"))
    flat.info = dict(image.info)
    return flat


def copies_made(data: bytes) -> dict[str, Copy]:
    """The full-size, phone and thumbnail copies of a photo checked before
    (``photo_checked``): the full size in its own format, the others in JPEG."""
    made: dict[str, Copy] = {}
    # A photo that passed the checks is whole; a later change of Pillow's default must not
    # let a half-read file through.
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    with _bombs_refused(), Image.open(io.BytesIO(data)) as original:
        found = original.format
        if found not in FORMATS:
            raise PhotoRefused(_("Format non pris en charge : %(format)s.") % {"format": found})
        upright = _clean(original)
        extension, content_type = FORMATS[found]
        full = upright if found != "JPEG" else _as_jpeg(upright)
        made["full"] = Copy(_saved(full, found), extension, content_type, *full.size)
        for kind, side in (("phone", PHONE_SIDE), ("thumb", THUMB_SIDE)):
            small = _as_jpeg(upright.copy())
            small.thumbnail((side, side), Image.Resampling.LANCZOS)
            made[kind] = Copy(_saved(small, "JPEG"), "jpg", "image/jpeg", *small.size)
    return made
