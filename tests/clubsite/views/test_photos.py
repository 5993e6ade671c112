"""A club's albums as visitors and members see them: the list and an album in a fixed number
of queries, thumbnails with their size, members-only albums sent to the login page, hidden
photos shown to nobody, the files served with long cache headers and no EXIF, and a member's
take-down request."""

from __future__ import annotations

import datetime
import io

import pytest
from django.urls import reverse
from PIL import Image

from clubsite.models import Album, Photo
from clubsite.photos import services
from tests.clubsite.photos.photo_files import phone_photo

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 3, 13)


def album_with_photos(club, title, count, commit, members_only=False) -> Album:
    album = services.album_create(club, title, DAY, members_only=members_only)
    with commit(execute=True):
        services.photos_upload(album, [phone_photo(f"{n}.jpg") for n in range(count)], None)
    return album


@pytest.fixture
def public(club, django_capture_on_commit_callbacks) -> Album:
    return album_with_photos(club, "Soirée de mars", 3, django_capture_on_commit_callbacks)


@pytest.fixture
def private(club, django_capture_on_commit_callbacks) -> Album:
    return album_with_photos(
        club, "Entre nous", 2, django_capture_on_commit_callbacks, members_only=True
    )


def test_the_album_list_shows_public_albums_to_a_visitor_in_three_queries(
    client, club, public, private, django_capture_on_commit_callbacks, django_assert_num_queries
):
    for n in range(3):
        album_with_photos(club, f"Album {n}", 1, django_capture_on_commit_callbacks)
    with django_assert_num_queries(2):  # the club, the albums with their covers and counts
        response = client.get(reverse("photo-albums", args=[club.slug]))
    page = response.content.decode()
    assert "Soirée de mars" in page and "Entre nous" not in page
    assert "3 photos" in page
    cover = public.photos.first()
    assert f'width="{cover.thumb_width}" height="{cover.thumb_height}"' in page


def test_a_member_sees_the_members_only_albums_too(client, club, public, private, member):
    client.force_login(member)
    page = client.get(reverse("photo-albums", args=[club.slug])).content.decode()
    assert "Soirée de mars" in page and "Entre nous" in page


def test_the_album_page_shows_each_thumbnail_with_its_size_in_a_fixed_number_of_queries(
    client, club, public, django_capture_on_commit_callbacks, django_assert_num_queries
):
    url = reverse("photo-album", args=[club.slug, public.slug])
    with django_assert_num_queries(3):  # the club, the album, its photos
        response = client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        services.photos_upload(public, [phone_photo("more.jpg")], None)
    with django_assert_num_queries(3):
        client.get(url)
    page = response.content.decode()
    for photo in public.photos.all()[:3]:
        assert reverse("photo-file", args=[club.slug, public.slug, photo.pk, "thumb"]) in page
        assert f'width="{photo.thumb_width}" height="{photo.thumb_height}"' in page


def test_a_members_only_album_sends_a_visitor_to_the_login_page(client, club, private):
    photo = private.photos.first()
    for url in (
        reverse("photo-album", args=[club.slug, private.slug]),
        reverse("photo", args=[club.slug, private.slug, photo.pk]),
        reverse("photo-file", args=[club.slug, private.slug, photo.pk, "thumb"]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_a_members_only_album_is_not_found_by_another_clubs_member(client, club, private, outsider):
    client.force_login(outsider)
    assert client.get(reverse("photo-album", args=[club.slug, private.slug])).status_code == 404


def test_a_member_opens_a_members_only_album_and_its_files_are_kept_privately(
    client, club, private, member
):
    client.force_login(member)
    photo = private.photos.first()
    assert client.get(reverse("photo-album", args=[club.slug, private.slug])).status_code == 200
    response = client.get(reverse("photo-file", args=[club.slug, private.slug, photo.pk, "phone"]))
    assert response["Cache-Control"].startswith("private, max-age=31536000")


@pytest.mark.parametrize("kind", ["thumb", "phone", "full"])
def test_every_served_copy_has_no_exif_and_a_long_cache(client, club, public, kind):
    photo = public.photos.first()
    response = client.get(reverse("photo-file", args=[club.slug, public.slug, photo.pk, kind]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    read = Image.open(io.BytesIO(b"".join(response.streaming_content)))
    assert len(read.getexif()) == 0 and "exif" not in read.info


def test_an_unknown_copy_is_not_found(client, club, public):
    photo = public.photos.first()
    url = reverse("photo-file", args=[club.slug, public.slug, photo.pk, "original"])
    assert client.get(url).status_code == 404


def test_the_photo_page_links_its_neighbours_and_offers_a_member_the_takedown(
    client, club, public, member
):
    first, second, third = public.photos.all()
    url = reverse("photo", args=[club.slug, public.slug, second.pk])
    page = client.get(url).content.decode()
    assert reverse("photo", args=[club.slug, public.slug, first.pk]) in page
    assert reverse("photo", args=[club.slug, public.slug, third.pk]) in page
    assert "Demander le retrait" not in page
    client.force_login(member)
    assert "Demander le retrait" in client.get(url).content.decode()


def test_a_members_takedown_hides_the_photo_at_once_and_tells_the_admins(
    client, club, public, member, club_admin, mailoutbox, django_capture_on_commit_callbacks
):
    photo = public.photos.first()
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("photo-takedown", args=[club.slug, public.slug, photo.pk]),
            {"note": "C'est moi, à gauche"},
        )
    assert response.status_code == 302
    photo.refresh_from_db()
    assert photo.hidden and photo.takedown_asked_by == member
    [mail] = mailoutbox
    assert mail.to == [club_admin.email or club_admin.player.email]
    assert "retrait" in mail.subject and "C'est moi, à gauche" in mail.body
    assert reverse("photo-admin", args=[club.slug]) in mail.body
    client.logout()
    page = client.get(reverse("photo-album", args=[club.slug, public.slug])).content.decode()
    assert reverse("photo", args=[club.slug, public.slug, photo.pk]) not in page
    file_url = reverse("photo-file", args=[club.slug, public.slug, photo.pk, "thumb"])
    assert client.get(file_url).status_code == 404
    # The club's admins still see it, to decide.
    client.force_login(club_admin)
    assert client.get(file_url).status_code == 200


def test_a_visitor_asking_a_takedown_is_sent_to_log_in(client, club, public):
    photo = public.photos.first()
    response = client.post(reverse("photo-takedown", args=[club.slug, public.slug, photo.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Photo.objects.filter(takedown_asked_at__isnull=False).exists()


def test_a_photo_waiting_for_its_copies_is_not_shown(client, club, public):
    [waiting] = services.photos_upload(public, [phone_photo("late.jpg")], None)
    url = reverse("photo", args=[club.slug, public.slug, waiting.pk])
    assert client.get(url).status_code == 404


def test_the_albums_read_in_dutch_for_a_dutch_reader(client, club, public):
    client.cookies["django_language"] = "nl"
    page = client.get(reverse("photo-album", args=[club.slug, public.slug])).content.decode()
    assert "Alle albums" in page
    listed = client.get(reverse("photo-albums", args=[club.slug])).content.decode()
    assert "3 foto's" in listed


def test_an_album_of_a_night_names_it_in_the_same_queries(
    client, club, imported_night, django_assert_num_queries
):
    album = services.album_create(club, "La soirée", DAY, night=imported_night)
    with django_assert_num_queries(3):
        page = client.get(reverse("photo-album", args=[club.slug, album.slug])).content.decode()
    assert str(imported_night) in page
