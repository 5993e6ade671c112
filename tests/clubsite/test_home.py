"""The club home's block: the latest published night's podium (its top three with their
points) and the latest album a viewer may open, cached under the club's stamp, which a
publication and every change a visitor would see in the albums move."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club.models import Club
from clubsite.home import club_home
from clubsite.photos import services
from tests.club.views.test_public import night_won_by
from tests.clubsite.photos.photo_files import phone_photo
from tests.factories import PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 3, 13)


def album_of(club, title, count, commit, members_only=False):
    album = services.album_create(club, title, DAY, members_only=members_only)
    with commit(execute=True):
        services.photos_upload(album, [phone_photo(f"{n}.jpg") for n in range(count)], None)
    return album


def fresh(club: Club) -> Club:
    """The club as the next request reads it (its stamp as the services left it)."""
    return Club.objects.get(pk=club.pk)


def test_the_podium_is_the_latest_published_nights_top_three_in_rank_order(club):
    season = SeasonFactory(club=club, year=2025)
    night_won_by(PlayerFactory(club=club), season, day=10, name="Soirée de janvier")
    latest = night_won_by(PlayerFactory(club=club), season, day=40, name="Soirée de février")

    home = club_home(fresh(club), is_member=False)

    assert home.night == latest
    ranks = [line.rank for line in home.podium]
    assert ranks == sorted(ranks) and ranks[0] == 1 and max(ranks) <= 3


def test_a_club_with_no_published_night_has_no_podium(club):
    assert club_home(club, is_member=False).night is None


def test_the_block_is_read_once_then_cached_until_the_club_changes(
    club, django_capture_on_commit_callbacks, django_assert_num_queries
):
    album_of(club, "Soirée de mars", 2, django_capture_on_commit_callbacks)
    club = fresh(club)
    with django_assert_num_queries(2):  # the podium, the album with its cover and count
        first = club_home(club, is_member=False)
    with django_assert_num_queries(0):
        again = club_home(club, is_member=False)
    assert again == first
    assert first.album.title == "Soirée de mars" and first.album.count == 2


def test_a_new_album_shows_at_once(club, django_capture_on_commit_callbacks):
    album_of(club, "Soirée de mars", 1, django_capture_on_commit_callbacks)
    assert club_home(fresh(club), is_member=False).album.title == "Soirée de mars"

    album_of(club, "Souper d'avril", 3, django_capture_on_commit_callbacks)

    assert club_home(fresh(club), is_member=False).album.title == "Souper d'avril"


def test_an_album_without_a_photo_shown_is_not_the_latest(club, django_capture_on_commit_callbacks):
    album_of(club, "Soirée de mars", 1, django_capture_on_commit_callbacks)
    services.album_create(club, "Vide", DAY + datetime.timedelta(days=5))

    assert club_home(fresh(club), is_member=False).album.title == "Soirée de mars"


def test_a_members_only_album_is_the_members_latest_not_a_visitors(
    club, django_capture_on_commit_callbacks
):
    album_of(club, "Soirée de mars", 1, django_capture_on_commit_callbacks)
    album_of(club, "Entre nous", 1, django_capture_on_commit_callbacks, members_only=True)
    club = fresh(club)

    assert club_home(club, is_member=False).album.title == "Soirée de mars"
    assert club_home(club, is_member=True).album.title == "Entre nous"


def test_a_photo_taken_down_leaves_the_home_page_at_once(
    club, member, django_capture_on_commit_callbacks
):
    album = album_of(club, "Soirée de mars", 1, django_capture_on_commit_callbacks)
    assert club_home(fresh(club), is_member=False).album is not None

    services.photo_takedown_ask(album.photos.get(), member)

    assert club_home(fresh(club), is_member=False).album is None


def test_the_club_page_shows_the_podium_linked_to_its_results_and_the_album(
    client, club, django_capture_on_commit_callbacks
):
    season = SeasonFactory(club=club, year=2025)
    night = night_won_by(PlayerFactory(club=club), season, day=40, name="Soirée de février")
    album = album_of(club, "Soirée de mars", 12, django_capture_on_commit_callbacks)
    cover = album.photos.first()

    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()

    assert reverse("games:results", args=[club.slug, night.pk]) in page
    assert 'class="podium-1"' in page
    assert reverse("photo-album", args=[club.slug, album.slug]) in page
    assert "12 photos" in page
    assert f'width="{cover.thumb_width}" height="{cover.thumb_height}"' in page
    assert reverse("palmares", args=[club.slug]) in page  # in the menu
