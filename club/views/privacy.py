"""What the site keeps about people, and for how long: one public page."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse

from ..invitations import INVITATION_DAYS
from ..services.closing import closed_keep_days


def privacy(request: HttpRequest) -> TemplateResponse:
    context = {"closed_days": closed_keep_days(), "invitation_days": INVITATION_DAYS}
    return TemplateResponse(request, "club/privacy.html", context)
