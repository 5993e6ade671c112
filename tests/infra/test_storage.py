"""Uploads in S3-compatible object storage, against a real S3 endpoint: moto's server on a
free port stands in for MinIO. An admin's photos go through the page into the bucket, their
copies are made there and read back through the site with no EXIF; a logo (the other uploads)
lands in the same bucket and is served at the site's own address.

Run once: CI's SQLite pass (the storage is the same whatever the database)."""

from __future__ import annotations

import datetime
import io
import os
from collections.abc import Iterator

import boto3
import pytest
from django.urls import reverse
from moto.server import ThreadedMotoServer
from PIL import ExifTags, Image

from club import services as club_services
from clubsite.models import Photo
from clubsite.photos import services
from tests.clubsite.photos.photo_files import phone_photo, png, upload

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        bool(os.environ.get("DATABASE_URL")),
        reason="object storage is tested once, on the SQLite pass",
    ),
]
BUCKET = "club-uploads"
KEYS = {"access_key": "testing", "secret_key": "testing", "region_name": "us-east-1"}


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
        region_name=KEYS["region_name"],
    )
    client.create_bucket(Bucket=BUCKET)
    yield endpoint
    server.stop()


@pytest.fixture
def bucket(s3_endpoint: str, settings, monkeypatch) -> Iterator[object]:
    """The site's storages pointed at the bucket, as config/settings.py does with
    DJANGO_S3_BUCKET; the bucket's client to look inside it."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    options = {
        "bucket_name": BUCKET,
        "endpoint_url": s3_endpoint,
        **KEYS,
        "addressing_style": "path",
        "file_overwrite": False,
        "default_acl": None,
        "querystring_auth": False,
    }
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "infra.storage.SiteServedS3Storage",
            "OPTIONS": {**options, "location": "media"},
        },
        "photos": {
            "BACKEND": "infra.storage.SiteServedS3Storage",
            "OPTIONS": {**options, "location": "photos"},
        },
    }
    client = boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
        region_name=KEYS["region_name"],
    )
    yield client


def keys(client, prefix: str) -> set[str]:
    listed = client.list_objects_v2(Bucket=BUCKET, Prefix=prefix)
    return {entry["Key"] for entry in listed.get("Contents", [])}


def test_photos_go_to_the_bucket_and_come_back_without_exif(
    client, club, club_admin, bucket, django_capture_on_commit_callbacks
):
    album = services.album_create(club, "Soirée", datetime.date(2025, 3, 13))
    client.force_login(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("photo-upload", args=[club.slug, album.slug]),
            {"photos": [phone_photo("a.jpg", orientation=6), phone_photo("b.jpg")]},
        )
    assert response.status_code == 302
    photos = list(Photo.objects.filter(album=album))
    assert [photo.status for photo in photos] == [Photo.Status.READY] * 2
    stored = keys(bucket, "photos/")
    expected = {f"photos/{name}" for photo in photos for name in photo.stored_names()}
    # The copies are there, and nothing else: each phone's upload was deleted once copied.
    # Each a thumbnail and one full-size file (no larger than a phone: one file for both).
    assert stored == expected and len(stored) == 4
    for photo in photos:
        for kind in ("full", "phone", "thumb"):
            url = reverse("photo-file", args=[club.slug, album.slug, photo.pk, kind])
            served = client.get(url)
            assert served.status_code == 200
            read = Image.open(io.BytesIO(b"".join(served.streaming_content)))
            assert len(read.getexif()) == 0
            assert not read.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    turned = photos[0]
    assert turned.height > turned.width  # orientation 6 applied before EXIF went
    with django_capture_on_commit_callbacks(execute=True):
        services.album_delete(album)
    assert keys(bucket, "photos/") == set()


def test_a_logo_goes_to_the_same_bucket_and_is_served_at_the_sites_address(client, club, bucket):
    club = club_services.club_settings_set(
        club, logo=upload("logo.png", png((40, 40)), "image/png")
    )
    assert club.logo.url.startswith("/media/")
    assert f"media/{club.logo.name}" in keys(bucket, "media/")
    served = client.get(club.logo.url)
    assert served.status_code == 200
    assert Image.open(io.BytesIO(b"".join(served.streaming_content))).size == (40, 40)
    assert served["Cache-Control"].startswith("public, max-age=")
