"""A photo sent by a club's admin: each refusal said in words before anything is decoded, and
the copies upright and without any metadata."""

from __future__ import annotations

import io

import pytest
from PIL import ExifTags, Image

from clubsite.photos import images
from clubsite.photos.demo import phone_jpeg
from clubsite.photos.images import PhotoRefused, copies_made, photo_checked

from .photo_files import gif, heic_head, png, png_header_only


def checked(data: bytes, name: str = "photo.jpg") -> images.Checked:
    return photo_checked(io.BytesIO(data), len(data), name)


def refusal(data: bytes, name: str = "photo.jpg", size: int | None = None) -> str:
    with pytest.raises(PhotoRefused) as refused:
        photo_checked(io.BytesIO(data), len(data) if size is None else size, name)
    return str(refused.value)


def test_a_phones_jpeg_is_taken_with_its_size_from_the_header():
    found = checked(phone_jpeg("Table 1", "#123456", (800, 600)))
    assert (found.format, found.width, found.height) == ("JPEG", 800, 600)


def test_a_png_and_a_webp_are_taken():
    assert checked(png((300, 200)), "capture.png").format == "PNG"
    out = io.BytesIO()
    Image.new("RGB", (50, 40), "blue").save(out, format="WEBP")
    assert checked(out.getvalue(), "x.webp").format == "WEBP"


def test_a_file_over_20_mb_is_refused_before_it_is_read():
    message = refusal(b"not read", "grand.jpg", size=images.MAX_BYTES + 1)
    assert "grand.jpg" in message and "20" in message


def test_a_text_file_is_not_an_image():
    message = refusal(b"Bonjour, ceci est un texte.", "notes.jpg")
    assert "notes.jpg n'est pas une image lisible" in message


def test_a_truncated_jpeg_is_refused():
    whole = phone_jpeg("Coupée", "#336699", (1600, 1200))
    assert "n'est pas une image lisible" in refusal(whole[: len(whole) // 2], "coupee.jpg")


def test_a_1_by_100000_png_is_refused_for_its_shape():
    assert "trop allongée (1 × 100000 pixels)" in refusal(png((1, 100_000)), "bande.png")


def test_a_pixel_bomb_is_refused_from_its_header():
    bomb = png_header_only(20_000, 20_000)  # 400 megapixels in a few hundred bytes
    assert len(bomb) < 1000
    assert "trop de pixels : 40 mégapixels au plus" in refusal(bomb, "bombe.png")


def test_just_over_the_pixel_cap_is_refused_and_pillows_guard_is_set_to_it():
    assert Image.MAX_IMAGE_PIXELS == images.MAX_PIXELS
    assert "trop de pixels" in refusal(png_header_only(8000, 5001), "grande.png")


def test_a_heic_photo_is_refused_naming_its_format():
    message = refusal(heic_head(), "IMG_1234.HEIC")
    assert "IMG_1234.HEIC est une image HEIC" in message and "JPEG" in message


def test_a_gif_is_refused_naming_its_format():
    assert "est une image GIF" in refusal(gif(), "anim.gif")


def test_an_empty_file_is_refused():
    assert "vide" in refusal(b"", "rien.jpg")


def test_every_copy_is_upright_and_carries_no_exif_and_no_gps():
    # Orientation 6: the sensor's pixels must be turned 90° to be seen upright.
    sent = phone_jpeg("Debout", "#884422", (1200, 900), orientation=6)
    assert Image.open(io.BytesIO(sent)).getexif().get_ifd(ExifTags.IFD.GPSInfo)
    made = copies_made(sent)
    assert set(made) == {"full", "phone", "thumb"}
    assert (made["full"].width, made["full"].height) == (900, 1200)
    assert max(made["thumb"].width, made["thumb"].height) == images.THUMB_SIDE
    for copy in made.values():
        read = Image.open(io.BytesIO(copy.data))
        assert read.size == (copy.width, copy.height)
        assert read.height > read.width
        assert len(read.getexif()) == 0
        assert "exif" not in read.info and "xmp" not in read.info


def test_a_transparent_png_keeps_its_format_full_size_and_is_flattened_in_the_copies():
    made = copies_made(png((600, 400), mode="RGBA"))
    assert made["full"].extension == "png"
    assert Image.open(io.BytesIO(made["full"].data)).format == "PNG"
    assert Image.open(io.BytesIO(made["phone"].data)).format == "JPEG"
