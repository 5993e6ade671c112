"""A news photo is served as a phone-sized JPEG with no EXIF; what is not a photo, or has too
many pixels, is refused in words before anything is decoded."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from clubsite import news_photo
from clubsite.news_photo import phone_copy
from tests.clubsite.helpers import photo_upload


def test_the_copy_is_phone_sized_and_carries_no_exif_nor_gps():
    copy = phone_copy(photo_upload())
    with Image.open(io.BytesIO(copy.read())) as image:
        assert image.format == "JPEG"
        assert max(image.size) == news_photo.PHONE_SIDE
        assert dict(image.getexif()) == {}
        assert "exif" not in image.info


def test_a_file_that_is_no_image_is_refused_in_words():
    upload = SimpleUploadedFile("notes.jpg", b"pas une photo", content_type="image/jpeg")
    with pytest.raises(ValidationError, match="pas une photo lisible"):
        phone_copy(upload)


def test_a_truncated_jpeg_is_refused_in_words():
    whole = photo_upload((400, 300), gps=False).read()
    upload = SimpleUploadedFile("cut.jpg", whole[: len(whole) // 3], content_type="image/jpeg")
    with pytest.raises(ValidationError, match="pas une photo lisible"):
        phone_copy(upload)


def test_too_many_pixels_are_refused_before_decoding(monkeypatch):
    monkeypatch.setattr(news_photo, "PIXELS_MAX", 1000)
    with pytest.raises(ValidationError, match="trop de pixels"):
        phone_copy(photo_upload((100, 100), gps=False))
