"""The room screen's private link, for the club admin: shown with what it opens, made or
renewed (the old link then opens nothing), after he confirms; and what the room screen shows
(each table's last three deals, or not)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import services
from ..club_pages import club_page
from ..permissions import CLUB_ADMIN


@login_required
@club_page(CLUB_ADMIN)
def room_link(request: HttpRequest, slug: str) -> HttpResponse:
    club = request.club
    if request.method == "POST" and request.POST.get("setting") == "last-deals":
        shown = request.POST.get("last_deals") == "1"
        services.room_last_deals_set(club, shown)
        messages.success(
            request,
            _("L'écran de salle montre les trois dernières donnes de chaque table.")
            if shown
            else _("L'écran de salle ne montre plus les donnes des tables."),
        )
        return redirect("room-link", slug=club.slug)
    if request.method == "POST":
        if request.POST.get("confirm") != "1":
            messages.warning(request, _("Cochez la confirmation : l'ancien lien ne marchera plus."))
            return redirect("room-link", slug=club.slug)
        services.room_key_renew(club)
        messages.success(
            request, _("Nouveau lien de l'écran de salle prêt. L'ancien ne marche plus.")
        )
        return redirect("room-link", slug=club.slug)
    link = (
        request.build_absolute_uri(reverse("room-by-key", args=[club.slug, club.room_key]))
        if club.room_key
        else ""
    )
    return TemplateResponse(request, "club/admin/room_link.html", {"club": club, "link": link})
