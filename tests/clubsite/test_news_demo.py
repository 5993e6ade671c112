"""The demo club's news: three published posts, one with its photo, one announcing its latest
night; run again, nothing more."""

import pytest

from club.models import Club
from clubsite.models import NewsPost
from clubsite.news_demo import demo_news
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db


def test_the_demo_club_gets_three_posts_once(imported_night):
    night = scoring_services.tournament_publish(imported_night)
    club = night.club
    assert demo_news(club) == 3
    posts = list(NewsPost.objects.filter(club=club).published())
    assert len(posts) == 3
    assert sum(1 for post in posts if post.photo) == 1
    assert any("podium" in post.title for post in posts)
    assert Club.objects.get(pk=club.pk).contact_email
    assert demo_news(club) == 0
