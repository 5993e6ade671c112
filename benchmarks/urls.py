"""The site's own addresses, unchanged, and the baseline of every page after them: a bare
view through the site's whole middleware stack that runs one query, nothing else.
``manage.py bench`` runs with ``ROOT_URLCONF`` pointing here."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from club.models import Club
from config import urls as site_urls


def bare_view(request: HttpRequest) -> HttpResponse:
    Club.objects.values_list("pk", flat=True).first()
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [*site_urls.urlpatterns, path("banc-d-essai/vide/", bare_view, name="bench-bare")]
