"""The demo club's album: a few phone photos with a GPS position, copied without it."""

from __future__ import annotations

import datetime
import io

import pytest
from PIL import ExifTags, Image

from clubsite.models import Photo
from clubsite.photos import services
from clubsite.photos.demo import DEMO_PHOTOS, demo_album, phone_jpeg

pytestmark = pytest.mark.django_db


def test_a_demo_photo_is_sent_as_a_phone_sends_it_with_its_gps_position():
    exif = Image.open(io.BytesIO(phone_jpeg("x", "#123456", (200, 150)))).getexif()
    assert exif.get_ifd(ExifTags.IFD.GPSInfo)[ExifTags.GPS.GPSLatitudeRef] == "N"


def test_the_demo_album_is_made_once_its_copies_without_gps(
    club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        album = demo_album(club, datetime.date(2025, 3, 13))
    assert demo_album(club, datetime.date(2025, 3, 13)) == album
    photos = list(album.photos.all())
    assert len(photos) == len(DEMO_PHOTOS)
    assert {photo.status for photo in photos} == {Photo.Status.READY}
    for photo in photos:
        read = Image.open(services.photo_storage().open(photo.full_name))
        assert not read.getexif().get_ifd(ExifTags.IFD.GPSInfo)
