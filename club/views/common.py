"""What the club's pages share: a service's refusal put on the form that was typed, and a
player of the club found by the address."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404

from .. import services
from ..models import Club, Membership


def form_errors(form: forms.Form, error: ValidationError) -> None:
    """A service's refusal on the form: each field's own under it, the rest above (with their
    codes: a page may offer what to do for one, ``form.has_error(field, code=…)``)."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def membership_of(club: Club, pk: int) -> Membership:
    """The player's latest membership of the club (404 for a player of another club)."""
    membership = (
        services.members_search(club).filter(player_id=pk).select_related("player", "club").first()
    )
    if membership is None:
        raise Http404("not a player of this club")
    return membership
