"""Albums and photos stored, changed and removed, and a member's request to take a photo of
himself down: one function per change, each refusing in the admin's words.

A photo's files are written in the ``photos`` storage (``STORAGES``) next to its row; when the
transaction fails, the files written for it are deleted, and a deleted row's files go once
its deletion commits: a file is never left without its row, nor a row without its file.

Every change a visitor would see in the albums moves the club's ``pages_changed`` stamp, under
which the club's home page keeps its latest album (``clubsite.home``)."""

from __future__ import annotations

import datetime
import logging
import secrets
from collections.abc import Iterable, Sequence

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from club.models import Club
from club.services.pages import published_pages_changed
from games.models import Tournament
from infra.outbox import TaskName, work_queue

from ..models import Album, Photo
from .images import PhotoRefused, copies_made, photo_checked

logger = logging.getLogger(__name__)

# Sent at once from a phone: an evening's album. More goes in several sendings: the request
# holds every file at once, and the proxies in front take 200 MB a sending (deploy/nginx.conf).
MAX_FILES = 30
MAX_SENDING_BYTES = 190 * 1024 * 1024
# A club's addresses that an album's slug must not look like (``photos/<slug>/`` is the
# album; ``nouvel-album`` is the management's).
RESERVED_SLUGS = {"nouvel-album", "photo"}


def photo_storage() -> Storage:
    """Where photos are kept (``STORAGES["photos"]``), looked up at each use: a test or a
    deployment that changes the setting is followed."""
    return storages["photos"]


def club_photo_bytes(club: Club) -> int:
    return Photo.objects.club_bytes(club)


def club_photo_quota() -> int:
    return settings.CLUB_PHOTOS_MAX_BYTES


def _slug_for(club: Club, title: str, album: Album | None = None) -> str:
    base = slugify(title)[:70] or "album"
    if base in RESERVED_SLUGS:
        base = f"album-{base}"
    taken = set(club.albums.exclude(pk=album.pk if album else None).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def album_create(
    club: Club,
    title: str,
    date: datetime.date,
    *,
    night: Tournament | None = None,
    members_only: bool = False,
) -> Album:
    album = Album(club=club, title=title, date=date, night=night, members_only=members_only)
    _album_checked(album)
    album.slug = _slug_for(club, album.title)
    album.save()
    return album


def album_update(album: Album, **fields: object) -> Album:
    """``title``, ``date``, ``night``, ``members_only``; a new title keeps the album's
    address (links shared before still open it)."""
    for name, value in fields.items():
        setattr(album, name, value)
    _album_checked(album)
    with transaction.atomic():
        album.save()
        published_pages_changed(album.club_id)
    return album


def _album_checked(album: Album) -> None:
    if album.night is not None and album.night.club_id != album.club_id:
        raise ValidationError({"night": _("Cette soirée n'est pas une soirée du club.")})
    album.full_clean(exclude=["slug"])


def album_delete(album: Album) -> int:
    """The album and its photos; their files go once the deletion commits."""
    names = [name for photo in album.photos.all() for name in photo.stored_names()]
    with transaction.atomic():
        count = album.photos.count()
        club_id = album.club_id
        album.delete()
        published_pages_changed(club_id)
        transaction.on_commit(lambda: files_delete(names))
    return count


def files_delete(names: Iterable[str]) -> None:
    """Delete these files of the photo storage; one that fails is logged (a stray file, found
    by its name, costs space and shows nothing)."""
    storage = photo_storage()
    for name in names:
        try:
            storage.delete(name)
        except Exception:
            logger.exception("photo file %s not deleted", name)


def _refusals(files: Sequence[UploadedFile]) -> list[str]:
    refused = []
    for upload in files:
        try:
            photo_checked(upload, upload.size or 0, upload.name or "?")
        except PhotoRefused as refusal:
            refused.append(str(refusal))
    return refused


def photos_upload(album: Album, files: Sequence[UploadedFile], by: User | None) -> list[Photo]:
    """Store the photos sent at once, each waiting for its copies (made by the outbox's task
    once this commits). Every file is checked first: one refused, none is stored, and the
    refusal names each file refused and why (``ValidationError``)."""
    if not files:
        raise ValidationError(_("Choisissez au moins une photo."), code="empty")
    if len(files) > MAX_FILES:
        raise ValidationError(
            _("%(count)s photos d'un coup : %(max)s au plus. Envoyez-les en plusieurs fois.")
            % {"count": len(files), "max": MAX_FILES},
            code="too_many",
        )
    sent = sum(upload.size or 0 for upload in files)
    if sent > MAX_SENDING_BYTES:
        raise ValidationError(
            _("Ces photos pèsent %(sent)s ensemble : %(max)s au plus par envoi.")
            % {"sent": filesizeformat(sent), "max": filesizeformat(MAX_SENDING_BYTES)},
            code="too_heavy",
        )
    refused = _refusals(files)
    if refused:
        raise ValidationError(refused, code="refused")
    used, quota = club_photo_bytes(album.club), club_photo_quota()
    if used + sent > quota:
        raise ValidationError(
            _(
                "Le club a %(used)s de photos sur %(quota)s permis : ces %(sent)s n'y "
                "tiennent pas. Supprimez d'anciennes photos ou envoyez-en moins."
            )
            % {
                "used": filesizeformat(used),
                "quota": filesizeformat(quota),
                "sent": filesizeformat(sent),
            },
            code="quota",
        )
    storage, written, photos = photo_storage(), [], []
    try:
        with transaction.atomic():
            for upload in files:
                upload.seek(0)
                name = storage.save(_file_name(album, "upload", "bin"), upload)
                written.append(name)
                photo = Photo.objects.create(
                    album=album, upload_name=name, bytes=upload.size or 0, uploaded_by=by
                )
                work_queue(TaskName.PHOTO_COPIES, photo.pk)
                photos.append(photo)
    except BaseException:
        files_delete(written)
        raise
    return photos


def _file_name(album: Album, kind: str, extension: str, token: str | None = None) -> str:
    """A name no one guesses: the photos of a members-only album are not found by trying."""
    token = token or secrets.token_hex(12)
    return f"{album.club_id}/{album.pk}/{token}-{kind}.{extension}"


def photo_copies_make(photo_id: int) -> bool:
    """Make a waiting photo's copies (``images.copies_made``) and delete its upload; True when
    made. Safe twice: a photo made already, or deleted meanwhile, is left alone (and the
    copies of a run that lost the race are deleted)."""
    photo = Photo.objects.filter(pk=photo_id, status=Photo.Status.WAITING).first()
    if photo is None or not photo.upload_name:
        return False
    storage = photo_storage()
    with storage.open(photo.upload_name, "rb") as upload:
        data = upload.read()
    try:
        made = copies_made(data)
    except Exception:
        # Checked at upload, so a bug or a Pillow change: the admins see « illisible ».
        logger.exception("photo %s: no copies made", photo_id)
        Photo.objects.filter(pk=photo_id, status=Photo.Status.WAITING).update(
            status=Photo.Status.FAILED, upload_name="", bytes=0
        )
        files_delete([photo.upload_name])
        return False
    token, names = secrets.token_hex(12), {}
    try:
        for kind, copy in made.items():
            if kind == "phone" and copy.data == made["full"].data:
                # A photo no larger than a phone's screen: one file serves both.
                names[kind] = names["full"]
                continue
            name = _file_name(photo.album, kind, copy.extension, token)
            names[kind] = storage.save(name, ContentFile(copy.data))
        updated = Photo.objects.filter(pk=photo_id, status=Photo.Status.WAITING).update(
            status=Photo.Status.READY,
            upload_name="",
            full_name=names["full"],
            phone_name=names["phone"],
            thumb_name=names["thumb"],
            width=made["full"].width,
            height=made["full"].height,
            phone_width=made["phone"].width,
            phone_height=made["phone"].height,
            thumb_width=made["thumb"].width,
            thumb_height=made["thumb"].height,
            bytes=sum(storage.size(name) for name in set(names.values())),
        )
    except BaseException:
        files_delete(set(names.values()))
        raise
    if not updated:
        files_delete(set(names.values()))
        return False
    published_pages_changed(photo.album.club_id)
    files_delete([photo.upload_name])
    return True


def photo_delete(photo: Photo) -> None:
    names = photo.stored_names()
    with transaction.atomic():
        club_id = photo.album.club_id
        photo.delete()
        published_pages_changed(club_id)
        transaction.on_commit(lambda: files_delete(names))


def photo_takedown_ask(photo: Photo, by: User, note: str = "") -> bool:
    """A member asks for a photo of himself to be taken down: it is hidden at once, and the
    club's admins are told (once per request). False when it was asked already."""
    note = " ".join(note.split())[:500]
    with transaction.atomic():
        asked = Photo.objects.filter(pk=photo.pk, takedown_asked_at__isnull=True).update(
            takedown_asked_at=timezone.now(),
            takedown_asked_by=by,
            takedown_note=note,
            takedown_told_at=None,
        )
        if asked:
            published_pages_changed(photo.album.club_id)
            work_queue(TaskName.PHOTO_TAKEDOWN_EMAIL, photo.pk)
    return bool(asked)


def photo_takedown_decide(photo: Photo, keep: bool) -> None:
    """The admins' answer: the photo shown again, or removed with its files."""
    if not keep:
        photo_delete(photo)
        return
    with transaction.atomic():
        Photo.objects.filter(pk=photo.pk).update(
            takedown_asked_at=None, takedown_asked_by=None, takedown_note="", takedown_told_at=None
        )
        published_pages_changed(photo.album.club_id)
