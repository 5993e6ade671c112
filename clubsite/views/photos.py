"""A club's albums as its visitors and members see them: the list, an album's thumbnails, a
photo, the photo's files (served by the site itself, asking who looks each time), and a
member's request that a photo of himself be taken down.

A members-only album sends a visitor to the login page (it exists: logging in opens it);
another club's member is told nothing (404). A photo waiting for its copies, or hidden by a
take-down request, is shown to nobody here (its admins see it on the management page)."""

from __future__ import annotations

import mimetypes

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, OuterRef, Q, Subquery
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from club.club_pages import club_page
from club.permissions import MEMBER

from ..models import Album, Photo
from ..photos.services import photo_storage, photo_takedown_ask

# A photo's copies never change (a new photo is a new row): a browser keeps them a year.
FILE_MAX_AGE = 365 * 24 * 3600
FILE_NAMES = {"thumb": "thumb_name", "phone": "phone_name", "full": "full_name"}


def _album_opened(request: HttpRequest, album_slug: str) -> Album | HttpResponse:
    """The club's album of the address, or the login page for a visitor at a members-only
    album (404 for a signed-in stranger to the club)."""
    album = get_object_or_404(
        Album.objects.select_related("night"), club=request.club, slug=album_slug
    )
    access = request.club_access
    if album.members_only and not access.is_member:
        if not access.signed_in:
            return redirect_to_login(request.get_full_path())
        access.refuse("the club's members only")
    return album


@require_safe
@club_page()
def albums(request: HttpRequest, slug: str) -> TemplateResponse:
    shown = Photo.objects.shown().filter(album=OuterRef("pk")).order_by("uploaded_at", "pk")
    listed = (
        Album.objects.filter(club=request.club)
        .seen_by(request.club_access.is_member)
        .annotate(
            count=Count(
                "photos",
                filter=Q(photos__status=Photo.Status.READY, photos__takedown_asked_at__isnull=True),
            ),
            cover=Subquery(shown.values("pk")[:1]),
            cover_width=Subquery(shown.values("thumb_width")[:1]),
            cover_height=Subquery(shown.values("thumb_height")[:1]),
        )
    )
    context = {
        "club": request.club,
        "albums": list(listed),
        "can_admin": request.club_access.is_club_admin,
    }
    return TemplateResponse(request, "clubsite/photos/albums.html", context)


@require_safe
@club_page()
def album(request: HttpRequest, slug: str, album: str) -> HttpResponse:
    opened = _album_opened(request, album)
    if isinstance(opened, HttpResponse):
        return opened
    context = {
        "club": request.club,
        "album": opened,
        "photos": list(opened.photos.shown()),
        "can_admin": request.club_access.is_club_admin,
    }
    return TemplateResponse(request, "clubsite/photos/album.html", context)


def _photo_of(request: HttpRequest, album_slug: str, pk: int) -> tuple[Album, Photo] | HttpResponse:
    opened = _album_opened(request, album_slug)
    if isinstance(opened, HttpResponse):
        return opened
    photos = opened.photos.filter(status=Photo.Status.READY)
    if not request.club_access.is_club_admin:
        photos = photos.filter(takedown_asked_at__isnull=True)
    photo = photos.filter(pk=pk).first()
    if photo is None:
        raise Http404("no such photo")
    return opened, photo


@require_safe
@club_page()
def photo(request: HttpRequest, slug: str, album: str, pk: int) -> HttpResponse:
    found = _photo_of(request, album, pk)
    if isinstance(found, HttpResponse):
        return found
    opened, shown = found
    neighbours = list(opened.photos.shown().values_list("pk", flat=True))
    place = neighbours.index(shown.pk) if shown.pk in neighbours else None
    context = {
        "club": request.club,
        "album": opened,
        "photo": shown,
        "previous": neighbours[place - 1] if place else None,
        "next": neighbours[place + 1]
        if place is not None and place + 1 < len(neighbours)
        else None,
        "can_ask": request.club_access.is_member and not shown.hidden,
    }
    return TemplateResponse(request, "clubsite/photos/photo.html", context)


@require_safe
@club_page()
def photo_file(request: HttpRequest, slug: str, album: str, pk: int, kind: str) -> HttpResponse:
    """One of a photo's cleaned copies, from the photo storage (disk or object storage)."""
    if kind not in FILE_NAMES:
        raise Http404("no such copy")
    found = _photo_of(request, album, pk)
    if isinstance(found, HttpResponse):
        return found
    opened, shown = found
    name = getattr(shown, FILE_NAMES[kind])
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    response = FileResponse(photo_storage().open(name, "rb"), content_type=content_type)
    # A members-only album's photos are kept by the browser alone, never by a shared cache.
    scope = "private" if opened.members_only else "public"
    response["Cache-Control"] = f"{scope}, max-age={FILE_MAX_AGE}, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_POST
@club_page(MEMBER)
def photo_takedown(request: HttpRequest, slug: str, album: str, pk: int) -> HttpResponse:
    """A member asks for a photo of himself to be taken down: hidden at once, the admins told."""
    found = _photo_of(request, album, pk)
    if isinstance(found, HttpResponse):
        return found
    opened, shown = found
    photo_takedown_ask(shown, request.user, request.POST.get("note", ""))
    messages.success(
        request,
        _("La photo est cachée. Les responsables du club décideront de la retirer ou non."),
    )
    return redirect("photo-album", slug=slug, album=opened.slug)
