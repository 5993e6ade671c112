"""The home page: the listed clubs and the federations that group them."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone

from club.models import Club
from club.views.public import club_detail
from games.presenters.club_start import listed_clubs
from games.presenters.federation import federation_links


def home(request: HttpRequest) -> TemplateResponse:
    """The clubs that chose to be listed (town, game, next night, a link to ask to join) and
    the federations that group them (each with its current season's ranking, so a newcomer
    finds it from here), and « Créer un club » unless the site takes no new club. A site that
    hosts one club and no federation opens straight on the club (« Créer un club » below)."""
    today = timezone.localdate()
    federations = federation_links(today)
    signup = settings.CLUB_SIGNUP
    if not federations:
        # A closed club is gone from the list (club.services.closing).
        only = list(Club.objects.filter(closing=None).values_list("slug", flat=True)[:2])
        if len(only) == 1:
            page = club_detail(request, only[0])
            page.context_data["signup"] = signup
            return page
    now = timezone.localtime().time()
    clubs = listed_clubs(today, now)
    context = {"clubs": clubs, "federations": federations, "signup": signup}
    return TemplateResponse(request, "front/home.html", context)
