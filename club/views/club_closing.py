"""A club leaves with its data: its admin downloads everything as one archive, then closes the
club after typing its name (``club.services.closing``). The old address then answers a page
that says the club closed (410), for everybody."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from ..club_archive import club_archive
from ..club_pages import club_page
from ..names import name_reader_of
from ..permissions import CLUB_ADMIN
from ..services.closing import closed_keep_days, closing_for_address, club_close


class CloseForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Le nom du club, pour confirmer"), max_length=200)


@never_cache
@login_required
@club_page(CLUB_ADMIN)
def archive_download(request: HttpRequest, slug: str) -> FileResponse:
    """Everything the club has, as one ZIP file (built on disk, streamed from there)."""
    club = request.club
    player = getattr(request.user, "player", None)
    by = player.display_name if player is not None else request.user.get_username()
    archive, _counts = club_archive(club, name_reader_of(request.user).name, by=by)
    filename = f"{club.slug}-{timezone.localdate().isoformat()}.zip"
    return FileResponse(
        archive, as_attachment=True, filename=filename, content_type="application/zip"
    )


@login_required
@club_page(CLUB_ADMIN)
def club_close_page(request: HttpRequest, slug: str) -> HttpResponse:
    """What closing means, the archive to download first, and the club's name to type."""
    club = request.club
    form = CloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            closing = club_close(club, typed_name=form.cleaned_data["name"], by=request.user)
        except ValidationError as refused:
            for message in refused.messages:
                form.add_error("name", message)
        else:
            return club_closed_page(request, closing.slug, status=200)
    context = {
        "club": club,
        "form": form,
        "days": closed_keep_days(),
        "purge": timezone.localdate() + datetime.timedelta(days=closed_keep_days()),
        "federations": list(club.federations.order_by("name")),
        "members": club.memberships.current().count(),
    }
    status = 400 if form.errors else 200
    return TemplateResponse(request, "club/admin/club_close.html", context, status=status)


def club_closed_page(request: HttpRequest, slug: str, status: int = 410) -> HttpResponse | None:
    """The page a closed club's old address answers (None: no closed club had it)."""
    closing = closing_for_address(slug)
    if closing is None:
        return None
    context = {"closing": closing, "name": closing.club.name, "days": closed_keep_days()}
    response = TemplateResponse(request, "club/club_closed.html", context, status=status)
    return response.render()
