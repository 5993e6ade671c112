"""What the club site's tests share: a post written and published in one line, and photos
made with Pillow (one carrying a GPS position in its EXIF)."""

from __future__ import annotations

import datetime
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from club.models import Club
from clubsite.models import NewsPost
from clubsite.news import PostText, news_save


def post_of(
    club: Club, title: str = "Le souper du club", *, day: int = 1, published: bool = True
) -> NewsPost:
    post = news_save(club, PostText(title, "Rendez-vous **samedi**.", datetime.date(2025, 3, day)))
    if published:
        NewsPost.objects.filter(pk=post.pk).update(
            status=NewsPost.Status.PUBLISHED, published_at=timezone.now()
        )
        post.refresh_from_db()
    return post


def photo_upload(size: tuple[int, int] = (3000, 2000), gps: bool = True) -> SimpleUploadedFile:
    """A JPEG as a phone takes it: large, with a camera's EXIF and a GPS position."""
    image = Image.new("RGB", size, (120, 30, 40))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    if gps:
        exif[0x8825] = {1: "N", 2: (50.0, 27.0, 0.0), 3: "E", 4: (4.0, 52.0, 0.0)}
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    return SimpleUploadedFile("IMG_0001.jpg", out.getvalue(), content_type="image/jpeg")
