"""The demo club's news (``manage.py demo_club``): three posts, one with a photo drawn here
with Pillow (no file shipped), one the announcement of its latest published night; and a
contact address, so that its contact page takes messages. Run again, it adds nothing."""

from __future__ import annotations

import datetime
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from club.models import Club
from games.models import Tournament

from .models import NewsPost
from .news import PostText, news_publish, news_save, night_announcement

SUPPER = """Le souper annuel du club aura lieu le **samedi 14 février** à la salle habituelle.

- apéritif à 19 h
- repas à 20 h (25 € par personne)
- tournoi amical ensuite

Inscriptions auprès du secrétaire avant le 7 février."""

HOURS = """À partir de mars, les soirées commencent à **19 h 30** au lieu de 20 h.

| Jour | Début | Fin prévue |
|:-----|:-----:|:----------:|
| jeudi | 19 h 30 | 23 h 30 |

Merci d'arriver un quart d'heure avant le début pour le tirage des tables."""


def _photo() -> SimpleUploadedFile:
    """A picture of a card table: green cloth, four cards."""
    image = Image.new("RGB", (1600, 1000), (22, 96, 52))
    draw = ImageDraw.Draw(image)
    for i, colour in enumerate([(200, 20, 30), (20, 20, 20), (200, 20, 30), (20, 20, 20)]):
        x = 350 + i * 240
        draw.rounded_rectangle((x, 330, x + 180, 600), radius=18, fill=(250, 250, 245))
        draw.ellipse((x + 60, 420, x + 120, 480), fill=colour)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return SimpleUploadedFile("souper.jpg", out.getvalue(), content_type="image/jpeg")


def demo_news(club: Club) -> int:
    """The demo club's three posts (none if it has posts already); how many were written."""
    if not club.contact_email:
        Club.objects.filter(pk=club.pk).update(contact_email="contact@rcwhist.example")
    if NewsPost.objects.filter(club=club).exists():
        return 0
    latest = (
        Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED)
        .order_by("-date")
        .first()
    )
    written = [
        (PostText("Nouvel horaire des soirées", HOURS, datetime.date(2025, 2, 20)), None),
        (PostText("Souper annuel du club", SUPPER, datetime.date(2025, 1, 15)), _photo()),
    ]
    if latest is not None:
        written.insert(0, (night_announcement(latest), None))
    for text, photo in written:
        news_publish(news_save(club, text, photo=photo))
    return len(written)
