"""The operator's list of clubs' sign-ups in Django's admin (his e-mail links to those waiting
for his approval), each approved (the club opens, its secretary is e-mailed) or refused (his
word, the « mot de l'exploitant », goes with the answer) by an action. A sign-up is made by
the secretary only (its address confirmed by its link): none is added here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import ClubSignup
from .services.signup_opening import signup_approve, signup_refuse


@admin.register(ClubSignup)
class ClubSignupAdmin(admin.ModelAdmin):
    list_display = ["club_name", "town", "email", "name", "status", "submitted_at", "created"]
    list_filter = ["status"]
    search_fields = ["email", "name"]
    list_select_related = ["club"]
    fields = [
        "status",
        "email",
        "name",
        "language",
        "answers",
        "club",
        "created",
        "confirmed_at",
        "submitted_at",
        "decided_at",
        "decided_by",
        "note",
    ]
    readonly_fields = [field for field in fields if field != "note"]
    actions = ["approve", "refuse"]

    @admin.display(description=gettext_lazy("club"))
    def club_name(self, signup: ClubSignup) -> str:
        return signup.club_name or "—"

    @admin.display(description=gettext_lazy("ville"))
    def town(self, signup: ClubSignup) -> str:
        return signup.town

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def _decide(self, request: Any, queryset: QuerySet[ClubSignup], decide: Any) -> None:
        for signup in queryset:
            try:
                decide(signup)
            except ValidationError as refused:
                names = {"club": signup.club_name, "why": " ".join(refused.messages)}
                self.message_user(request, _("%(club)s : %(why)s") % names, messages.ERROR)
            else:
                self.message_user(request, _("%(club)s : fait.") % {"club": signup.club_name})

    @admin.action(description=gettext_lazy("Approuver : ouvrir le club"))
    def approve(self, request: Any, queryset: QuerySet[ClubSignup]) -> None:
        self._decide(request, queryset, lambda signup: signup_approve(signup, request.user))

    @admin.action(description=gettext_lazy("Refuser (avec le mot de l'exploitant)"))
    def refuse(self, request: Any, queryset: QuerySet[ClubSignup]) -> None:
        self._decide(request, queryset, lambda signup: signup_refuse(signup, request.user))
