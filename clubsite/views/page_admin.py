"""A club's pages managed by its admins (``club_page(CLUB_ADMIN)``: another club's admin gets
404, a member 403): the list, a page written or changed, its history and an earlier version put
back, a page deleted. The work is ``clubsite.pages``'s."""

from __future__ import annotations

import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.club_pages import club_page
from club.models import Club
from club.permissions import CLUB_ADMIN
from club.views.common import form_errors

from .. import pages
from ..forms import PageForm
from ..models import Page


def _page_of(club: Club, pk: int) -> Page:
    """A page of the address's club: another club's page is not found."""
    return get_object_or_404(Page, club=club, pk=pk)


@login_required
@club_page(CLUB_ADMIN)
def page_list(request: HttpRequest, slug: str) -> TemplateResponse:
    club = request.club
    site_pages = list(Page.objects.filter(club=club).in_menu_order().defer("text", "html"))
    return TemplateResponse(
        request, "clubsite/admin/pages.html", {"club": club, "site_pages": site_pages}
    )


def _page_form(
    request: HttpRequest, club: Club, page: Page | None
) -> TemplateResponse | HttpResponse:
    # The form writes what was posted onto its instance: the page's title and address in the
    # page's links stay the stored ones when the post is refused.
    form = PageForm(request.POST or None, instance=copy.copy(page))
    if request.method == "POST" and form.is_valid():
        fields = form.cleaned_data
        try:
            if page is None:
                saved = pages.page_create(club, fields, request.user)
            else:
                saved = pages.page_update(page, fields, request.user)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Page « %(title)s » enregistrée.") % {"title": saved.title})
            return redirect("site-page-edit", slug=club.slug, pk=saved.pk)
    return TemplateResponse(
        request, "clubsite/admin/page_form.html", {"club": club, "page": page, "form": form}
    )


@login_required
@club_page(CLUB_ADMIN)
def page_add(request: HttpRequest, slug: str) -> TemplateResponse | HttpResponse:
    return _page_form(request, request.club, None)


@login_required
@club_page(CLUB_ADMIN)
def page_edit(request: HttpRequest, slug: str, pk: int) -> TemplateResponse | HttpResponse:
    return _page_form(request, request.club, _page_of(request.club, pk))


@login_required
@club_page(CLUB_ADMIN)
def page_delete(request: HttpRequest, slug: str, pk: int) -> TemplateResponse | HttpResponse:
    """A confirmation first: a page and its whole history go."""
    club = request.club
    page = _page_of(club, pk)
    if request.method == "POST":
        pages.page_delete(page)
        messages.success(request, _("Page « %(title)s » supprimée.") % {"title": page.title})
        return redirect("site-pages", slug=club.slug)
    return TemplateResponse(
        request, "clubsite/admin/page_delete.html", {"club": club, "page": page}
    )


@login_required
@club_page(CLUB_ADMIN)
def page_history(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    club = request.club
    page = _page_of(club, pk)
    versions = list(page.versions.select_related("saved_by").defer("html"))
    shown = next((v for v in versions if str(v.number) == request.GET.get("version")), None)
    return TemplateResponse(
        request,
        "clubsite/admin/page_history.html",
        {"club": club, "page": page, "versions": versions, "shown": shown},
    )


@login_required
@club_page(CLUB_ADMIN)
@require_POST
def page_restore(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    club = request.club
    page = _page_of(club, pk)
    try:
        page = pages.page_restore(page, number, request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("site-page-history", slug=club.slug, pk=page.pk)
    messages.success(
        request,
        _("Version %(number)s remise en place (enregistrée comme version %(new)s).")
        % {"number": number, "new": page.version},
    )
    return redirect("site-page-history", slug=club.slug, pk=page.pk)
