"""The club's settings page (its name, logo, colours, contact, night defaults, and whether its
federations' inter-club nights count in its ranking), and its colours as a style sheet. Its
admin's only (``club_page(CLUB_ADMIN)``); ``club.services.club_settings_set`` does the work."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.labels import rules_choices
from scoring import services as scoring_services

from .. import services
from ..club_pages import club_page
from ..colours import readable_text
from ..language import LanguageSelect
from ..models import Club
from ..permissions import CLUB_ADMIN
from ..profile import PHONE, PhotoField
from .common import form_errors


class ColourInput(forms.TextInput):
    """A colour picker. HTML allows neither ``maxlength`` nor ``required`` on it (it always
    holds a colour): the model field's length and the form's requirement stay on the server,
    which checks them."""

    input_type = "color"

    def build_attrs(self, base_attrs: dict[str, Any], extra_attrs: Any = None) -> dict[str, Any]:
        attrs = super().build_attrs(base_attrs, extra_attrs)
        attrs.pop("maxlength", None)
        return attrs

    def use_required_attribute(self, initial: Any) -> bool:
        return False


class ClubSettingsForm(forms.ModelForm):
    logo = PhotoField(
        label=gettext_lazy("Logo"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )

    class Meta:
        model = Club
        fields = [
            *services.CLUB_IDENTITY_FIELDS,
            "rounds_per_night",
            "ranking_follows_nights",
            "ranking_interclub",
            "sort_ignores_particles",
        ]
        labels = {
            "ranking_follows_nights": gettext_lazy(
                "Publier le classement de la saison avec chaque soirée publiée"
            ),
            "ranking_interclub": gettext_lazy(
                "Compter les soirées inter-clubs dans le classement du club"
            ),
            "sort_ignores_particles": gettext_lazy(
                "Trier les listes de joueurs sans les particules (« Van den Broeck » sous B)"
            ),
        }
        widgets = {
            "colour_background": ColourInput,
            "colour_text": ColourInput,
            "language": LanguageSelect,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["default_rules"].choices = rules_choices()
        self.fields["contact_phone"].validators.append(PHONE)
        former = getattr(self.instance, "former_names", None) or []
        self.fields["name"].help_text = (
            _(
                "Les fichiers de soirées importés retrouvent le club par son nom ou par ses "
                "anciens noms : %(names)s."
            )
            % {"names": ", ".join(former)}
            if former
            else _(
                "Après un changement de nom, les fichiers de soirées importés retrouvent "
                "encore le club par son ancien nom."
            )
        )
        if not getattr(self.instance, "pk", None) or not self.instance.federations.exists():
            # Only a club of a federation has inter-club nights to count.
            del self.fields["ranking_interclub"]


@login_required
@club_page(CLUB_ADMIN)
def club_settings(request: HttpRequest, slug: str) -> TemplateResponse | HttpResponse:
    club = request.club
    form = ClubSettingsForm(
        request.POST or None, request.FILES or None, instance=Club.objects.get(pk=club.pk)
    )
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.changed_data}
        if fields.get("logo") is False:  # "remove the logo" ticked
            fields["logo"] = None
        try:
            with transaction.atomic():
                club = services.club_settings_set(club, **fields)
                if "ranking_interclub" in fields:
                    # The current season's ranking counts the inter-club nights, or no more.
                    _current_ranking_queue(club)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Réglages du club enregistrés."))
            return redirect("club-settings", slug=club.slug)
    return TemplateResponse(request, "club/admin/settings.html", {"club": club, "form": form})


def _current_ranking_queue(club: Club) -> None:
    today = timezone.localdate()
    season = club.seasons.filter(start__lte=today, end__gte=today).first()
    if season is not None:
        scoring_services.season_ranking_queue(season.pk)


@club_page()
def club_colours(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's colours as a style sheet (the Content-Security-Policy allows no inline
    style): the room screen and the club's pages link it."""
    club = request.club
    # The standings keep their own white table: only the page around them takes the colours.
    # The text always reads on the background (4.5:1 at least), whatever the club picked.
    background = club.colour_background
    text = readable_text(background, club.colour_text)
    css = (
        f".club-colours, body.room-screen {{ background: {background}; }}\n"
        f".club-colours, body.room-screen .room-head {{ color: {text}; }}\n"
    )
    response = HttpResponse(css, content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    return response
