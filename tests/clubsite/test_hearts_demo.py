"""The hearts club's site in the demo: its news (one post announcing its latest published
night), an album whose photos are shown, and a contact address; run again, nothing more."""

import datetime

import pytest

from club.models import Club
from clubsite.hearts_demo import demo_hearts_site
from clubsite.models import Album, NewsPost, Photo
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db
TODAY = datetime.date(2025, 6, 30)


def test_the_hearts_club_gets_its_posts_album_and_contact_once(
    imported_night, django_capture_on_commit_callbacks
):
    club = scoring_services.tournament_publish(imported_night).club

    with django_capture_on_commit_callbacks(execute=True):
        said = demo_hearts_site(club, TODAY)

    posts = list(NewsPost.objects.filter(club=club).published())
    assert len(posts) == 2 and any("podium" in post.title for post in posts)
    album = Album.objects.get(club=club)
    assert Photo.objects.shown().filter(album=album).count() == 3
    assert Club.objects.get(pk=club.pk).contact_email
    assert "2 news posts" in said and "3 photos" in said

    assert demo_hearts_site(club, TODAY) == f"{club.name}: 0 news posts."
    assert Album.objects.filter(club=club).count() == 1
