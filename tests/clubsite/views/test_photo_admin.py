"""The club's albums managed by its admins: an album created, changed and deleted, photos sent
several at once (each refused file named, nothing stored then), a photo deleted, a take-down
answered; the club's total on the management and settings pages; another club's admin gets
404."""

from __future__ import annotations

import datetime

import pytest
from django.template.defaultfilters import filesizeformat
from django.urls import reverse

from clubsite.models import Album, Photo
from clubsite.photos import services
from tests.clubsite.photos.photo_files import heic_head, phone_photo, png, png_header_only, upload
from tests.conftest import persona
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 3, 13)


@pytest.fixture
def admin_client(client, club_admin):
    client.force_login(club_admin)
    return client


@pytest.fixture
def album(club) -> Album:
    return services.album_create(club, "Soirée de mars", DAY)


def test_an_admin_creates_an_album_for_a_night_of_the_club(admin_client, club, imported_night):
    response = admin_client.post(
        reverse("photo-album-add", args=[club.slug]),
        {"title": "Soirée de mars", "date": "2025-03-13", "night": imported_night.pk},
    )
    album = Album.objects.get()
    assert response["Location"] == reverse("photo-album-edit", args=[club.slug, album.slug])
    assert album.night == imported_night and not album.members_only


def test_an_album_without_a_title_is_refused_in_words(admin_client, club):
    response = admin_client.post(
        reverse("photo-album-add", args=[club.slug]), {"date": "2025-03-13"}
    )
    assert response.status_code == 200 and "obligatoire" in response.content.decode()
    assert not Album.objects.exists()


def test_an_admin_makes_an_album_members_only(admin_client, club, album):
    admin_client.post(
        reverse("photo-album-edit", args=[club.slug, album.slug]),
        {"title": "Soirée de mars", "date": "2025-03-13", "members_only": "on"},
    )
    album.refresh_from_db()
    assert album.members_only


def test_an_admin_sends_several_photos_at_once(
    admin_client, club, album, django_capture_on_commit_callbacks
):
    page = admin_client.get(reverse("photo-album-edit", args=[club.slug, album.slug]))
    assert 'accept="image/*"' in page.content.decode() and "multiple" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("photo-upload", args=[club.slug, album.slug]),
            {"photos": [phone_photo("a.jpg"), phone_photo("b.jpg"), phone_photo("c.jpg")]},
        )
    assert response.status_code == 302
    assert Photo.objects.filter(album=album, status=Photo.Status.READY).count() == 3


@pytest.mark.parametrize(
    ("sent", "words"),
    [
        (upload("notes.jpg", b"ceci est un texte"), "notes.jpg n&#x27;est pas une image lisible"),
        (upload("IMG.HEIC", heic_head()), "IMG.HEIC est une image HEIC"),
        (upload("bande.png", png((1, 100_000))), "bande.png est trop allongée"),
        (upload("bombe.png", png_header_only(30_000, 30_000)), "bombe.png a trop de pixels"),
    ],
)
def test_a_refused_photo_is_named_and_nothing_is_stored(admin_client, club, album, sent, words):
    response = admin_client.post(
        reverse("photo-upload", args=[club.slug, album.slug]),
        {"photos": [phone_photo("bonne.jpg"), sent]},
    )
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Photo.objects.exists()


def test_an_admin_deletes_a_photo_and_an_album(admin_client, club, album):
    [photo] = services.photos_upload(album, [phone_photo()], None)
    admin_client.post(reverse("photo-delete", args=[club.slug, photo.pk]))
    assert not Photo.objects.exists()
    admin_client.post(reverse("photo-album-delete", args=[club.slug, album.slug]))
    assert not Album.objects.exists()


def test_an_admin_answers_a_takedown_request(admin_client, club, album, member):
    [kept, removed] = services.photos_upload(
        album, [phone_photo("a.jpg"), phone_photo("b.jpg")], None
    )
    for photo in (kept, removed):
        services.photo_copies_make(photo.pk)
        services.photo_takedown_ask(photo, member, "Pas moi")
    page = admin_client.get(reverse("photo-admin", args=[club.slug])).content.decode()
    assert "Demandes de retrait" in page and "Pas moi" in page
    admin_client.post(reverse("photo-takedown-decide", args=[club.slug, kept.pk, "garder"]))
    admin_client.post(reverse("photo-takedown-decide", args=[club.slug, removed.pk, "retirer"]))
    assert list(Photo.objects.shown()) == [kept]
    again = admin_client.post(
        reverse("photo-takedown-decide", args=[club.slug, kept.pk, "retirer"])
    )
    assert again.status_code == 302 and Photo.objects.filter(pk=kept.pk).exists()


def test_the_clubs_total_is_shown_on_the_management_and_settings_pages(
    admin_client, club, album, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.photos_upload(album, [phone_photo()], None)
    used = services.club_photo_bytes(club)
    assert used > 0
    for name in ("photo-admin", "club-settings"):
        page = admin_client.get(reverse(name, args=[club.slug])).content.decode()
        assert f'<span class="storage-used">{filesizeformat(used)}</span>' in page


def test_the_clubs_management_page_links_its_photos(admin_client, club):
    page = admin_client.get(reverse("club-admin", args=[club.slug])).content.decode()
    assert reverse("photo-admin", args=[club.slug]) in page


def test_another_clubs_admin_finds_nothing(client, club, album):
    client.force_login(persona(ClubFactory(name="Whist Club Liège"), "liege", "admin"))
    [photo] = services.photos_upload(album, [phone_photo()], None)
    assert client.get(reverse("photo-album-edit", args=[club.slug, album.slug])).status_code == 404
    assert client.post(reverse("photo-delete", args=[club.slug, photo.pk])).status_code == 404
    assert Photo.objects.exists()


def test_a_photo_of_another_club_is_not_found_from_this_clubs_address(admin_client, club):
    other = ClubFactory(name="Autre club")
    theirs = services.album_create(other, "Leur album", DAY)
    [photo] = services.photos_upload(theirs, [phone_photo()], None)
    assert admin_client.post(reverse("photo-delete", args=[club.slug, photo.pk])).status_code == 404
