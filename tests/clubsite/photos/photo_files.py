"""Files the photo tests send: a phone's JPEG with GPS and the refused kinds, each made here."""

from __future__ import annotations

import io
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from clubsite.photos.demo import phone_jpeg


def upload(name: str, data: bytes, content_type: str = "image/jpeg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type)


def phone_photo(name: str = "IMG_0001.jpg", **options) -> SimpleUploadedFile:
    """A phone's JPEG (small, so that the tests stay quick), with its GPS position."""
    options.setdefault("size", (480, 360))
    return upload(name, phone_jpeg("Table 1", "#1d4e89", **options))


def png(size: tuple[int, int], mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, "red").save(out, format="PNG")
    return out.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` and whose pixels are a few bytes: a
    pixel bomb, refused from its header."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def heic_head() -> bytes:
    """The first bytes of an iPhone's HEIC file (its ISO base media ``ftyp`` box)."""
    return b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 200


def gif() -> bytes:
    out = io.BytesIO()
    Image.new("P", (20, 20)).save(out, format="GIF")
    return out.getvalue()
