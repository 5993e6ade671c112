"""The site as an installable web app that opens offline: its manifest, its icons, and a
service worker (templates/front/offline/sw.js) that keeps the site's shell (styles, scripts, icons,
the offline page) and each score sheet the phone has opened.

The worker is served from the site's root so that it looks after every page, never cached by
the browser (each visit checks for a new version). Its version is made of what it keeps: a new
style sheet, script or worker is a new version, which takes over at once and empties the old
caches."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template import loader
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

# What a phone keeps to open the site with no network (the sheet's own files among them).
SHELL = [
    "css/site.css",
    "css/sheet.css",
    "css/dealform.css",
    "js/htmx-2.0.11.min.js",
    "js/site.js",
    "js/sheet.js",
    "js/sheet-points.js",
    "js/dealform.js",
    "icons/favicon.svg",
    "icons/icon-192.png",
]


@cache
def _version_of_files() -> str:
    """What the worker keeps, fingerprinted: each file's address as the pages name it (in
    production the collected, hashed name, which changes with the file) and its source when
    the finders have it (in development the address never changes)."""
    digest = hashlib.sha256()
    for name in SHELL:
        digest.update(static(name).encode())
        path = finders.find(name)
        if path:
            with open(path, "rb") as file:
                digest.update(file.read())
    template = loader.get_template("front/offline/sw.js")
    digest.update(template.template.source.encode())
    return digest.hexdigest()[:12]


def offline_version() -> str:
    """The worker's version: ``OFFLINE_VERSION`` when set (a deployment's own number), else
    the fingerprint of what it keeps."""
    return getattr(settings, "OFFLINE_VERSION", "") or _version_of_files()


@never_cache
@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    context = {
        "version": json.dumps(offline_version()),
        "shell": json.dumps([static(name) for name in SHELL] + [reverse("offline")]),
        "offline_page": json.dumps(reverse("offline")),
        # The folder, not a file: static("") has no entry in production's manifest (a 500
        # on every page's visit).
        "static_prefix": json.dumps(settings.STATIC_URL),
    }
    body = loader.render_to_string("front/offline/sw.js", context)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@cache_control(max_age=86400)
@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("icons/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    document = {
        "name": _("Club de whist"),
        "short_name": _("Whist"),
        "description": _("Soirées, feuilles de marque et classements du club."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#7a1f2b",
        "icons": icons,
    }
    return JsonResponse(document, content_type="application/manifest+json")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask /favicon.ico whatever the page says: the site's icon, not a 404."""
    return redirect(static("icons/favicon-32.png"), permanent=True)


@require_safe
def offline(request: HttpRequest) -> TemplateResponse:
    """What the phone shows for a page it has not kept, when there is no network."""
    return TemplateResponse(request, "front/offline/offline.html", {})
