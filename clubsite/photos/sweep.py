"""Photo files no row names any more, deleted: a closed club purged with its albums
(``club.services.closing`` deletes the rows and knows nothing of the club site's files), a
deletion whose files could not be removed then, a worker that died between writing a copy and
its row. Run daily by Celery beat (``clubsite.tasks.photo_files_sweep``).

A file younger than a day is left alone: it may be an upload whose transaction has not
committed yet."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterator

from django.core.files.storage import Storage
from django.utils import timezone

from ..models import Photo
from .services import files_delete, photo_storage

logger = logging.getLogger(__name__)

KEEP_YOUNG = datetime.timedelta(days=1)


def _walk(storage: Storage, folder: str = "") -> Iterator[str]:
    folders, files = storage.listdir(folder)
    for name in files:
        yield f"{folder}/{name}" if folder else name
    for sub in folders:
        yield from _walk(storage, f"{folder}/{sub}" if folder else sub)


def photo_files_sweep(now: datetime.datetime | None = None) -> int:
    """Delete the photo storage's files that no photo names and are a day old; how many."""
    now = now or timezone.now()
    storage = photo_storage()
    named: set[str] = set()
    for names in Photo.objects.values_list("upload_name", "full_name", "phone_name", "thumb_name"):
        named.update(name for name in names if name)
    stray = [
        name
        for name in _walk(storage)
        if name not in named and storage.get_modified_time(name) < now - KEEP_YOUNG
    ]
    if stray:
        logger.info("photo files sweep: %s files no photo names", len(stray))
        files_delete(stray)
    return len(stray)
