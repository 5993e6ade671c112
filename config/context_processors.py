"""What every page's template may name besides Django's own."""

from __future__ import annotations

from django.http import HttpRequest

from infra.viewer import viewer_stamp


def viewer(request: HttpRequest) -> dict[str, str]:
    """The page's viewer stamp (also its ``X-Viewer`` header), for the page's scripts: the
    deals a score sheet queues on the phone carry it, so that another login on the same
    phone neither sees nor sends them (static/js/sheet.js, static/js/site.js)."""
    return {"viewer_stamp": viewer_stamp(request)}
