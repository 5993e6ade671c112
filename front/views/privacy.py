"""The privacy page: what the site keeps about whom, why, and for how long (each part of the
site that keeps something says it in its own section)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse

from club.invitations import INVITATION_DAYS
from club.services.closing import closed_keep_days
from club.services.signup_opening import DECIDED_KEPT_DAYS, LINK_DAYS
from clubsite.contact import KEPT_DAYS as CONTACT_KEPT_DAYS
from infra.throttle import KEEP


def privacy(request: HttpRequest) -> TemplateResponse:
    context = {
        "link_days": LINK_DAYS,
        "decided_days": DECIDED_KEPT_DAYS,
        "throttle_hours": int(KEEP.total_seconds() // 3600),
        "closed_days": closed_keep_days(),
        "invitation_days": INVITATION_DAYS,
        "contact_days": CONTACT_KEPT_DAYS,
    }
    return TemplateResponse(request, "front/privacy.html", context)
