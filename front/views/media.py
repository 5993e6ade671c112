"""Uploads (players' photos) in production: whitenoise serves only the static files collected
at deploy time, so the files members upload come through here.

Behind nginx, ``DJANGO_MEDIA_ACCEL_REDIRECT`` names an ``internal`` location aliased to the
media folder: Django only checks the address and answers with ``X-Accel-Redirect``, and nginx
sends the file (no Python process busy with a download). Without a proxy (a small club, the
HTTP smoke test) Django sends the file itself. Uploads in object storage (several web hosts,
``infra.storage``) are read from it through Django's storage API and sent the same way."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage, storages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.utils._os import safe_join
from django.views.decorators.http import require_safe

# A photo changes name when a member uploads a new one (the storage never reuses a name that
# exists), so a browser may keep one for a day.
MEDIA_MAX_AGE = 24 * 3600


@require_safe
def media_file(request: HttpRequest, path: str) -> HttpResponse:
    storage = storages["default"]
    if not isinstance(storage, FileSystemStorage):
        return _stored_file(storage, path)
    try:
        full = Path(safe_join(settings.MEDIA_ROOT, path))
    except Exception as outside:  # "../" out of the media folder: SuspiciousFileOperation
        raise Http404("no such file") from outside
    if not full.is_file():
        raise Http404("no such file")
    content_type = mimetypes.guess_type(full.name)[0] or "application/octet-stream"
    if settings.MEDIA_ACCEL_REDIRECT:
        response = HttpResponse(content_type=content_type)
        response["X-Accel-Redirect"] = settings.MEDIA_ACCEL_REDIRECT.rstrip("/") + "/" + path
    else:
        response = FileResponse(full.open("rb"), content_type=content_type)
    response["Cache-Control"] = f"public, max-age={MEDIA_MAX_AGE}"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _stored_file(storage, path: str) -> HttpResponse:
    """An upload kept elsewhere than this host's disk (object storage)."""
    if ".." in path.split("/") or not storage.exists(path):
        raise Http404("no such file")
    content_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    response = FileResponse(storage.open(path, "rb"), content_type=content_type)
    response["Cache-Control"] = f"public, max-age={MEDIA_MAX_AGE}"
    response["X-Content-Type-Options"] = "nosniff"
    return response
