"""The home page's list of clubs leads a newcomer to ask to join one: his name, his address and
a word, sent to the club's admins (``club.services.join_requests``). Only a club that chose to
be listed takes requests; the others are not found here (404)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from club.models import Club
from club.services.join_requests import join_request_make
from club.views.common import form_errors
from club.views.signup import Honeypot
from infra.client_address import client_address
from infra.typography import named


class JoinRequestForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Votre nom"), max_length=120)
    email = forms.EmailField(label=gettext_lazy("Votre adresse e-mail"), max_length=254)
    message = forms.CharField(
        label=gettext_lazy("Un mot pour le club (facultatif)"),
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("Par exemple : vous jouez déjà, vous aimeriez apprendre…"),
    )
    website = Honeypot()


def join_request(request: HttpRequest, slug: str) -> HttpResponse:
    """Ask to join a listed club; its admins answer by e-mail (the club's invitation)."""
    club = get_object_or_404(Club, slug=slug, listed=True)
    form = JoinRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["website"]:
            # A robot: thanked as a person is, and nothing is kept.
            return redirect("club-detail", slug=club.slug)
        try:
            join_request_make(
                club,
                name=data["name"],
                email=data["email"],
                message=data["message"],
                language=(get_language() or "fr")[:2],
                address=client_address(request),
            )
        except ValidationError as refused:
            form_errors(form, refused)
        else:
            messages.success(
                request,
                named(
                    _(
                        "Votre demande est envoyée à %(club)s : son administrateur vous "
                        "répondra par e-mail."
                    ),
                    club=club.name,
                ),
            )
            return redirect("club-detail", slug=club.slug)
    return TemplateResponse(request, "front/join/request.html", {"club": club, "form": form})
