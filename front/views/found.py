"""How the site is found: ``/robots.txt`` (what crawlers leave alone, where the sitemap is) and
``/sitemap.xml`` (Django's sitemaps framework, the pages in ``front/sitemaps.py``)."""

from __future__ import annotations

from django.contrib.sitemaps.views import sitemap as sitemap_view
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from ..sitemaps import SITEMAPS

# Nothing a crawler should index: a club's management, its members' and seasons' admin pages,
# the member's account, the JSON API and Django's admin. (They answer a visitor with the login
# page or a 404 anyway; this keeps crawlers from asking.)
DISALLOWED = (
    "/clubs/*/gestion/",
    "/clubs/*/membres/",
    "/clubs/*/saisons/",
    "/clubs/*/reglages/",
    "/clubs/*/tableaux/",
    "/compte/",
    "/inscription/",
    "/api/",
    "/admin/",
)


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED)]
    lines += ["", f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


@require_safe
def sitemap(request: HttpRequest) -> HttpResponse:
    """Every public page of every listed club (``front.sitemaps``)."""
    return sitemap_view(request, sitemaps=SITEMAPS)
