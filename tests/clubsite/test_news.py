"""A club's news, one service per change: HTML made at save, published once by e-mail, taken
back, deleted; who gets the e-mails; a published night's announcement."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from club.models import Membership
from clubsite import news
from clubsite.models import NewsPost
from clubsite.news import PostText, news_publish, news_save
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring import services as scoring_services
from tests.clubsite.helpers import photo_upload, post_of
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_text_is_made_into_safe_html_once_when_saved(club):
    post = news_save(
        club, PostText("Souper", "**Samedi** <script>x</script>", datetime.date.today())
    )
    assert "<strong>Samedi</strong>" in post.html and "<script>" not in post.html
    assert post.status == NewsPost.Status.DRAFT


def test_a_2_mb_text_is_refused_in_words_and_nothing_is_written(club):
    with pytest.raises(ValidationError, match="20000"):
        news_save(club, PostText("Long", "x" * 2_000_000, datetime.date.today()))
    assert NewsPost.objects.count() == 0


def test_a_photo_is_stored_as_its_phone_copy(club):
    post = news_save(club, PostText("Photo", "", datetime.date.today()), photo=photo_upload())
    assert post.photo.name.startswith("clubsite/news/") and post.photo.name.endswith(".jpg")


def test_a_refused_photo_refuses_the_whole_post(club):
    with pytest.raises(ValidationError):
        news_save(
            club,
            PostText("Photo", "", datetime.date.today()),
            photo=SimpleUploadedFile("x.jpg", b"nope"),
        )
    assert NewsPost.objects.count() == 0


def test_another_clubs_post_is_not_edited(club):
    post = post_of(ClubFactory(name="Voisins"))
    with pytest.raises(ValidationError):
        news_save(club, PostText("X", "", datetime.date.today()), post=post)


def test_publishing_with_email_queues_it_once_for_the_posts_life(club):
    post = post_of(club, published=False)
    news_publish(post, email=True)
    news.news_unpublish(post)
    news_publish(post, email=True)
    assert PendingWork.objects.filter(task=TaskName.NEWS_EMAIL, key=post.pk).count() == 1
    post.refresh_from_db()
    assert post.is_published and post.emailed_at is not None


def test_publishing_without_email_queues_nothing(club):
    news_publish(post_of(club, published=False), email=False)
    assert not PendingWork.objects.filter(task=TaskName.NEWS_EMAIL).exists()


def test_the_latest_three_published_posts_newest_first(club):
    for day in range(1, 6):
        post_of(club, f"Post {day}", day=day)
    post_of(club, "Brouillon", day=9, published=False)
    assert [p.title for p in news.news_latest(club)] == ["Post 5", "Post 4", "Post 3"]


def test_news_go_to_current_members_who_asked_only(club):
    asked = PlayerFactory(club=club)
    silent = PlayerFactory(club=club)
    left = PlayerFactory(club=club)
    for player in (asked, left):
        news.news_reader_set(club, player, True)
    Membership.objects.filter(player=left).update(end=datetime.date(2024, 1, 1))
    assert news.news_readers(club) == [asked]
    news.news_reader_set(club, asked, False)
    assert news.news_readers(club) == []
    assert silent not in news.news_readers(club)


def test_a_published_nights_announcement_names_its_podium(imported_night):
    night = scoring_services.tournament_publish(imported_night)
    written = news.night_announcement(night, site="https://club.example")
    assert written.date == night.date
    assert "podium" in written.title
    assert written.text.count("**") == 2 * min(3, night.standings.filter(rank__lte=3).count())
    assert f"https://club.example/clubs/{night.club.slug}/soirees/{night.pk}/" in written.text
