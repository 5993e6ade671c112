"""A club's page as its readers see it (``/clubs/<slug>/<page>/``, the last address of the
club's: every real page wins), and the club's point table as a page.

A members-only page sends a visitor to the login page (it exists; he may be a member who has
not signed in yet) and answers a signed-in non-member with 404, as every private page of a club
answers outsiders (``ClubAccess.refuse``): a login of no player of the club learns nothing."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils import timezone

from club.club_pages import club_page

from ..models import Page
from ..point_table_page import point_table_page


@club_page()
def page_detail(request: HttpRequest, slug: str, page: str) -> TemplateResponse | HttpResponse:
    club = request.club
    site_page = get_object_or_404(
        Page.objects.only("title", "slug", "html", "members_only", "language", "updated_at"),
        club=club,
        slug=page,
    )
    access = request.club_access
    if site_page.members_only:
        if not access.signed_in:
            return redirect_to_login(request.get_full_path())
        if not access.is_member:
            raise Http404("the club's members only")
    return TemplateResponse(
        request,
        "clubsite/page.html",
        {"club": club, "site_page": site_page, "can_admin": access.is_club_admin},
    )


@club_page()
def point_table(request: HttpRequest, slug: str) -> TemplateResponse:
    club = request.club
    shown = point_table_page(club, timezone.localdate(), request.club_access.is_member)
    return TemplateResponse(
        request,
        "clubsite/point_table.html",
        {"club": club, "shown": shown, "tricks": list(range(14))},
    )
