"""A club's albums managed by its admins (``gestion/site/photos/``): albums created, changed
and deleted, photos sent from a phone several at once and deleted, and the members' take-down
requests answered (the photo kept, shown again, or removed). Its admins' only: a member is
told he may not (403), anybody else learns nothing (404)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from club.club_pages import club_page
from club.permissions import CLUB_ADMIN
from club.views.common import form_errors
from games.models import Tournament

from ..models import Album, Photo
from ..photos import services
from ..photos.images import MAX_BYTES

DECISIONS = {"garder": True, "retirer": False}


class AlbumForm(forms.ModelForm):
    class Meta:
        model = Album
        fields = ["title", "date", "night", "members_only"]
        labels = {
            "title": gettext_lazy("Titre"),
            "date": gettext_lazy("Date"),
            "night": gettext_lazy("Soirée (facultatif)"),
            "members_only": gettext_lazy("Réservé aux membres du club"),
        }
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, club: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["night"].queryset = Tournament.objects.filter(club=club).order_by("-date")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class UploadForm(forms.Form):
    """Several photos at once: a phone's picker hands all it was given (checked by the
    service, each refusal naming its file)."""

    photos = forms.FileField(
        label=gettext_lazy("Photos"),
        required=False,
        widget=MultipleFileInput(attrs={"accept": "image/*", "multiple": True}),
        help_text=gettext_lazy("JPEG, PNG ou WebP ; %(max)s Mo au plus par photo.")
        % {"max": MAX_BYTES // (1024 * 1024)},
    )


def _album(request: HttpRequest, album: str) -> Album:
    return get_object_or_404(Album, club=request.club, slug=album)


@login_required
@club_page(CLUB_ADMIN)
def photo_admin(request: HttpRequest, slug: str) -> TemplateResponse:
    club = request.club
    albums = Album.objects.filter(club=club).annotate(
        count=Count("photos"),
        waiting=Count("photos", filter=~Q(photos__status=Photo.Status.READY)),
    )
    asked = (
        Photo.objects.filter(album__club=club, takedown_asked_at__isnull=False)
        .select_related("album", "takedown_asked_by__player")
        .order_by("takedown_asked_at")
    )
    context = {
        "club": club,
        "albums": list(albums),
        "asked": list(asked),
        "used": services.club_photo_bytes(club),
        "quota": services.club_photo_quota(),
    }
    return TemplateResponse(request, "clubsite/photo_admin/index.html", context)


@login_required
@club_page(CLUB_ADMIN)
def album_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = request.club
    form = AlbumForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        fields = form.cleaned_data
        try:
            album = services.album_create(
                club,
                fields["title"],
                fields["date"],
                night=fields["night"],
                members_only=fields["members_only"],
            )
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Album « %(title)s » créé.") % {"title": album.title})
            return redirect("photo-album-edit", slug=club.slug, album=album.slug)
    return TemplateResponse(
        request, "clubsite/photo_admin/album_add.html", {"club": club, "form": form}
    )


def _album_page(
    request: HttpRequest, album: Album, form: AlbumForm, upload: UploadForm
) -> TemplateResponse:
    context = {
        "club": request.club,
        "album": album,
        "form": form,
        "upload": upload,
        "photos": list(album.photos.all()),
    }
    return TemplateResponse(request, "clubsite/photo_admin/album_edit.html", context)


@login_required
@club_page(CLUB_ADMIN)
def album_edit(request: HttpRequest, slug: str, album: str) -> HttpResponse:
    found = _album(request, album)
    form = AlbumForm(request.POST or None, instance=found, club=request.club)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            services.album_update(Album.objects.get(pk=found.pk), **fields)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Album enregistré."))
            return redirect("photo-album-edit", slug=slug, album=found.slug)
    return _album_page(request, found, form, UploadForm())


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def photo_upload(request: HttpRequest, slug: str, album: str) -> HttpResponse:
    found = _album(request, album)
    upload = UploadForm(request.POST, request.FILES)
    files = request.FILES.getlist("photos")
    try:
        photos = services.photos_upload(found, files, request.user)
    except ValidationError as error:
        upload.is_valid()
        upload.add_error("photos", error)
        page = _album_page(request, found, AlbumForm(instance=found, club=request.club), upload)
        page.status_code = 400
        return page
    messages.success(
        request,
        _("%(count)s photo(s) ajoutée(s) à l'album.") % {"count": len(photos)},
    )
    return redirect("photo-album-edit", slug=slug, album=found.slug)


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def album_delete(request: HttpRequest, slug: str, album: str) -> HttpResponse:
    found = _album(request, album)
    services.album_delete(found)
    messages.success(request, _("Album « %(title)s » supprimé.") % {"title": found.title})
    return redirect("photo-admin", slug=slug)


def _club_photo(request: HttpRequest, pk: int) -> Photo:
    photo = Photo.objects.filter(album__club=request.club, pk=pk).select_related("album").first()
    if photo is None:
        raise Http404("no such photo")
    return photo


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def photo_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    photo = _club_photo(request, pk)
    services.photo_delete(photo)
    messages.success(request, _("Photo supprimée."))
    return redirect("photo-album-edit", slug=slug, album=photo.album.slug)


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def takedown_decide(request: HttpRequest, slug: str, pk: int, decision: str) -> HttpResponse:
    if decision not in DECISIONS:
        raise Http404("no such decision")
    photo = _club_photo(request, pk)
    if photo.takedown_asked_at is None:
        messages.info(request, _("Cette demande de retrait a déjà reçu sa réponse."))
        return redirect("photo-admin", slug=slug)
    services.photo_takedown_decide(photo, keep=DECISIONS[decision])
    if DECISIONS[decision]:
        messages.success(request, _("Photo gardée : elle est à nouveau visible."))
    else:
        messages.success(request, _("Photo retirée."))
    return redirect("photo-admin", slug=slug)
