"""A news post's photo, the one place it is made: the upload checked before it is decoded
(its size in bytes and in pixels, so that a decompression bomb is refused in words), turned
upright, cut to a phone's width and saved as a JPEG without EXIF (no GPS position, no camera).
When the club's albums arrive, a post may point at an album's photo instead; this module is
what changes then."""

from __future__ import annotations

import io
import warnings

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

# A phone photo is a few MB; more is not a photo for a news item.
FILE_MAX = 20 * 1024 * 1024
PIXELS_MAX = 40_000_000
# The copy served: wide enough for a phone held either way.
PHONE_SIDE = 1280


def phone_copy(upload: UploadedFile) -> ContentFile:
    """The photo as it is served, or ``ValidationError`` in words (nothing stored then)."""
    if upload.size is not None and upload.size > FILE_MAX:
        raise ValidationError(_("Cette photo dépasse 20 Mo."), code="photo_size")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # Opening reads the header only: the pixels are counted before any is decoded.
            with Image.open(upload) as image:
                width, height = image.size
                if width * height > PIXELS_MAX:
                    raise ValidationError(
                        _("Cette photo a trop de pixels (40 millions au plus)."),
                        code="photo_pixels",
                    )
                image = ImageOps.exif_transpose(image)
                image = image.convert("RGB")
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError, SyntaxError):
        raise ValidationError(
            _("Ce fichier n'est pas une photo lisible (JPEG ou PNG)."), code="photo_unreadable"
        ) from None
    except Image.DecompressionBombWarning:
        raise ValidationError(
            _("Cette photo a trop de pixels (40 millions au plus)."), code="photo_pixels"
        ) from None
    image.thumbnail((PHONE_SIDE, PHONE_SIDE))
    out = io.BytesIO()
    # No ``exif=`` given: Pillow writes none, so nothing of the camera's record is served.
    image.save(out, "JPEG", quality=85, optimize=True)
    return ContentFile(out.getvalue(), name="photo.jpg")
