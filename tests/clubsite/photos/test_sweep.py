"""The photo files no row names, deleted once a day old: a purged club's albums leave none."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from clubsite.models import Album
from clubsite.photos import services
from clubsite.photos.sweep import photo_files_sweep

from .photo_files import phone_photo

pytestmark = pytest.mark.django_db
LATER = datetime.timedelta(days=2)


def test_a_deleted_clubs_files_go_and_the_living_photos_stay(club, settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "photos": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    kept = services.album_create(club, "Gardé", datetime.date(2025, 3, 13))
    [photo] = services.photos_upload(kept, [phone_photo()], None)
    services.photo_copies_make(photo.pk)
    photo.refresh_from_db()
    gone = services.album_create(club, "Parti", datetime.date(2025, 3, 13))
    [lost] = services.photos_upload(gone, [phone_photo()], None)
    services.photo_copies_make(lost.pk)
    lost.refresh_from_db()
    lost_names = lost.stored_names()
    # Deleted as a club's purge deletes its rows: nothing told the storage.
    Album.objects.filter(pk=gone.pk).delete()
    storage = services.photo_storage()
    assert photo_files_sweep() == 0  # too young: maybe an upload not committed yet
    assert photo_files_sweep(timezone.now() + LATER) == len(lost_names)
    assert not any(storage.exists(name) for name in lost_names)
    assert all(storage.exists(name) for name in photo.stored_names())
