"""Uploads kept in S3-compatible object storage (MinIO, S3 …) and still served by the site.

With several web hosts, uploads cannot stay on one host's disk: ``STORAGES`` then names this
backend (``config/settings.py``, ``DJANGO_S3_BUCKET``). Its files keep the site's own
addresses (``MEDIA_URL``, read by ``front.views.media``; a club's photos by their album's
page), so the bucket stays private, no page carries a link that expires, and the
Content-Security-Policy keeps allowing images from the site alone."""

from __future__ import annotations

from django.conf import settings
from django.utils.encoding import filepath_to_uri
from storages.backends.s3 import S3Storage


class SiteServedS3Storage(S3Storage):
    def url(self, name: str, parameters=None, expire=None, http_method=None) -> str:
        return "/" + settings.MEDIA_URL.strip("/") + "/" + filepath_to_uri(name)
