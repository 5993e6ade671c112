"""The hearts club's own site in the demo (``manage.py demo_club``), beside RCWhist's: two
posts, one the announcement of its latest published night, an album of a night and a contact
address, so that the Quick start shows a second club's home page whole. Run again, it adds
nothing."""

from __future__ import annotations

import datetime

from club.models import Club
from games.models import Tournament

from .models import Album, NewsPost
from .news import PostText, news_publish, news_save, night_announcement
from .photos.demo import demo_album

NEW_SEASON = """Les soirées reprennent en **janvier**, un mardi par mois, au café « Le Pilori ».

- 20 h : tirage des tables
- première soirée gratuite pour les nouveaux

Venez avec un ami : il suffit de savoir ce qu'est une dame de pique."""

PHOTOS = [
    ("La dame de pique", "#2b2d42"),
    ("Trois cartes à gauche", "#8d0801"),
    ("Le grand chelem", "#386641"),
]


def demo_hearts_site(club: Club, today: datetime.date) -> str:
    """The hearts club's posts, album and contact address, each written once; said in a
    line."""
    if not club.contact_email:
        Club.objects.filter(pk=club.pk).update(contact_email="contact@coeurs-namur.example")
    written = 0
    if not NewsPost.objects.filter(club=club).exists():
        posts = [PostText("Reprise des soirées", NEW_SEASON, datetime.date(2025, 1, 7))]
        latest = (
            Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED)
            .order_by("-date")
            .first()
        )
        if latest is not None:
            posts.insert(0, night_announcement(latest))
        for text in posts:
            news_publish(news_save(club, text))
        written = len(posts)
    had_album = Album.objects.filter(club=club).exists()
    album = demo_album(club, today, PHOTOS)
    return (
        f"{club.name}: {written} news posts"
        f"{'' if had_album else f', album « {album.title} » ({album.photos.count()} photos)'}."
    )
