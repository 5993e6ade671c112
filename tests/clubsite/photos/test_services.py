"""Albums and photos stored and removed: the photos sent at once, their copies made by the
outbox's task once the upload commits, nothing half stored, the club's cap, take-downs."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.exceptions import ValidationError
from PIL import Image

from clubsite.models import Album, Photo
from clubsite.photos import services
from infra.models import PendingWork
from infra.outbox import TaskName
from tests.factories import ClubFactory

from .photo_files import heic_head, phone_photo, png, upload

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 3, 13)


@pytest.fixture
def album(club) -> Album:
    return services.album_create(club, "Soirée de mars", DAY)


def uploaded(album, files, by=None, commit=None):
    with commit(execute=True):
        return services.photos_upload(album, files, by)


def test_an_albums_address_is_made_from_its_title_and_kept_apart_from_another(club):
    first = services.album_create(club, "Soirée de mars", DAY)
    second = services.album_create(club, "Soirée de Mars", DAY)
    assert (first.slug, second.slug) == ("soiree-de-mars", "soiree-de-mars-2")
    assert services.album_create(club, "Nouvel album", DAY).slug == "album-nouvel-album"


def test_an_album_refuses_another_clubs_night(club, imported_night):
    other = ClubFactory(name="Autre club")
    with pytest.raises(ValidationError, match="pas une soirée du club"):
        services.album_create(other, "Mauvaise soirée", DAY, night=imported_night)


def test_photos_sent_at_once_are_copied_once_the_upload_commits(
    album, club_admin, django_capture_on_commit_callbacks
):
    photos = uploaded(
        album,
        [phone_photo("IMG_1.jpg"), phone_photo("IMG_2.jpg")],
        club_admin,
        django_capture_on_commit_callbacks,
    )
    storage = services.photo_storage()
    for photo in photos:
        photo.refresh_from_db()
        assert photo.status == Photo.Status.READY
        assert photo.upload_name == "" and photo.uploaded_by == club_admin
        assert all(storage.exists(name) for name in photo.stored_names())
        assert photo.bytes == sum(storage.size(name) for name in photo.stored_names())
        assert Image.open(storage.open(photo.thumb_name)).size == (
            photo.thumb_width,
            photo.thumb_height,
        )
    assert not PendingWork.objects.filter(task=TaskName.PHOTO_COPIES).exists()


def test_the_upload_waits_for_its_copies_until_the_task_runs(album):
    # No commit yet (the test's transaction): the photo waits, its upload stored.
    [photo] = services.photos_upload(album, [phone_photo()], None)
    assert photo.status == Photo.Status.WAITING and photo.upload_name
    assert services.photo_storage().exists(photo.upload_name)
    assert PendingWork.objects.filter(task=TaskName.PHOTO_COPIES, key=photo.pk).exists()
    assert services.photo_copies_make(photo.pk) is True
    assert services.photo_copies_make(photo.pk) is False  # twice: nothing more
    photo.refresh_from_db()
    assert photo.status == Photo.Status.READY
    assert not services.photo_storage().exists(photo.upload_name or "gone")


def test_one_refused_file_and_none_is_stored_each_refusal_named(album):
    files = [
        phone_photo("IMG_1.jpg"),
        upload("IMG_2.HEIC", heic_head()),
        upload("x.png", png((1, 100_000))),
    ]
    with pytest.raises(ValidationError) as refused:
        services.photos_upload(album, files, None)
    messages = refused.value.messages
    assert len(messages) == 2
    assert "IMG_2.HEIC est une image HEIC" in messages[0]
    assert "x.png est trop allongée" in messages[1]
    assert not Photo.objects.exists()


def test_a_failure_while_storing_removes_the_files_written(album, monkeypatch):
    storage = services.photo_storage()
    saved = []
    real_save = storage.save

    def save_then_fail(name, content, *args, **kwargs):
        if saved:
            raise OSError("disk full")
        saved.append(real_save(name, content, *args, **kwargs))
        return saved[-1]

    monkeypatch.setattr(storage, "save", save_then_fail)
    with pytest.raises(OSError):
        services.photos_upload(album, [phone_photo("a.jpg"), phone_photo("b.jpg")], None)
    monkeypatch.undo()
    assert not Photo.objects.exists()
    assert saved and not storage.exists(saved[0])


def test_too_many_files_at_once_and_none_at_all_are_refused(album):
    with pytest.raises(ValidationError, match="au moins une photo"):
        services.photos_upload(album, [], None)
    files = [phone_photo(f"{n}.jpg", size=(40, 30)) for n in range(services.MAX_FILES + 1)]
    with pytest.raises(ValidationError, match="31 photos d'un coup : 30 au plus"):
        services.photos_upload(album, files, None)


def test_the_clubs_cap_refuses_what_does_not_fit(album, settings):
    services.photos_upload(album, [phone_photo()], None)
    used = services.club_photo_bytes(album.club)
    settings.CLUB_PHOTOS_MAX_BYTES = used + 100
    with pytest.raises(ValidationError, match="n'y tiennent pas"):
        services.photos_upload(album, [phone_photo("b.jpg")], None)
    assert Photo.objects.count() == 1


def test_an_album_deleted_takes_its_files_once_committed(album, django_capture_on_commit_callbacks):
    [photo] = uploaded(album, [phone_photo()], None, django_capture_on_commit_callbacks)
    photo.refresh_from_db()
    names = photo.stored_names()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.album_delete(album) == 1
    storage = services.photo_storage()
    assert names and not any(storage.exists(name) for name in names)


def test_a_takedown_hides_the_photo_and_queues_the_admins_email_once(album, member):
    [photo] = services.photos_upload(album, [phone_photo()], None)
    services.photo_copies_make(photo.pk)
    assert services.photo_takedown_ask(photo, member, "  C'est   moi ") is True
    assert services.photo_takedown_ask(photo, member) is False
    photo.refresh_from_db()
    assert photo.hidden and photo.takedown_note == "C'est moi"
    assert not Photo.objects.shown().exists()
    assert PendingWork.objects.filter(task=TaskName.PHOTO_TAKEDOWN_EMAIL, key=photo.pk).count() == 1


def test_a_kept_photo_is_shown_again_and_a_removed_one_is_gone(
    album, member, django_capture_on_commit_callbacks
):
    kept, removed = uploaded(
        album,
        [phone_photo("a.jpg"), phone_photo("b.jpg")],
        None,
        django_capture_on_commit_callbacks,
    )
    for photo in (kept, removed):
        services.photo_takedown_ask(photo, member)
    services.photo_takedown_decide(kept, keep=True)
    removed.refresh_from_db()
    names = removed.stored_names()
    with django_capture_on_commit_callbacks(execute=True):
        services.photo_takedown_decide(removed, keep=False)
    assert list(Photo.objects.shown()) == [kept]
    assert not any(services.photo_storage().exists(name) for name in names)


def test_a_photo_the_task_cannot_read_is_marked_and_its_upload_deleted(album, monkeypatch):
    [photo] = services.photos_upload(album, [phone_photo()], None)
    name = photo.upload_name

    def broken(data):
        raise OSError("decoder broke")

    monkeypatch.setattr(services, "copies_made", broken)
    assert services.photo_copies_make(photo.pk) is False
    photo.refresh_from_db()
    assert photo.status == Photo.Status.FAILED and photo.bytes == 0
    assert not services.photo_storage().exists(name)


def test_the_copies_read_back_carry_no_exif(album, django_capture_on_commit_callbacks):
    [photo] = uploaded(album, [phone_photo()], None, django_capture_on_commit_callbacks)
    photo.refresh_from_db()
    for name in (photo.full_name, photo.phone_name, photo.thumb_name):
        read = Image.open(io.BytesIO(services.photo_storage().open(name).read()))
        assert len(read.getexif()) == 0


def test_a_sending_heavier_than_the_proxies_take_is_refused_in_words(album, monkeypatch):
    monkeypatch.setattr(services, "MAX_SENDING_BYTES", 1000)
    with pytest.raises(ValidationError, match="au plus par envoi"):
        services.photos_upload(album, [phone_photo("a.jpg"), phone_photo("b.jpg")], None)
    assert not Photo.objects.exists()


def test_a_photo_larger_than_a_phone_has_three_files_and_a_small_one_two(album):
    big, small = services.photos_upload(
        album, [phone_photo("big.jpg", size=(2000, 1500)), phone_photo("small.jpg")], None
    )
    for photo in (big, small):
        services.photo_copies_make(photo.pk)
        photo.refresh_from_db()
    assert len(big.stored_names()) == 3 and (big.phone_width, big.phone_height) == (1600, 1200)
    assert small.phone_name == small.full_name and len(small.stored_names()) == 2
    storage = services.photo_storage()
    assert small.bytes == storage.size(small.full_name) + storage.size(small.thumb_name)
