"""A club's contact page: a visitor writes to the club, whose address he never sees
(``clubsite.contact`` keeps robots out and hands the message to the outbox)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.club_pages import club_page
from club.views.common import form_errors
from club.views.signup import Honeypot
from infra.client_address import client_address

from ..contact import contact_receive, shown_check, shown_token
from ..models.contact import MESSAGE_MAX


class ContactForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Votre nom"), max_length=120)
    email = forms.EmailField(label=gettext_lazy("Votre adresse e-mail"), max_length=254)
    message = forms.CharField(
        label=gettext_lazy("Votre message"),
        max_length=MESSAGE_MAX,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    website = Honeypot()
    shown = forms.CharField(widget=forms.HiddenInput, required=False)


@club_page()
def contact(request: HttpRequest, slug: str) -> HttpResponse:
    club = request.club
    form = ContactForm(request.POST or None, initial={"shown": shown_token()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["website"]:
                raise ValidationError(
                    _("Message refusé : un champ caché aux personnes a été rempli."),
                    code="contact_robot",
                )
            shown_check(data["shown"])
            contact_receive(
                club,
                name=data["name"],
                email=data["email"],
                message=data["message"],
                address=client_address(request),
            )
        except ValidationError as refused:
            form_errors(form, refused)
        else:
            messages.success(
                request, _("Votre message est envoyé à %(club)s. Merci !") % {"club": club.name}
            )
            return redirect("contact", slug=slug)
    if form.is_bound and form.has_error(NON_FIELD_ERRORS, code="contact_stale"):
        # A stale form is given a fresh moment: sent again after reading, it goes.
        form.data = form.data.copy()
        form.data["shown"] = shown_token()
    context = {"club": club, "form": form, "can_admin": request.club_access.is_club_admin}
    return TemplateResponse(request, "clubsite/contact.html", context)
