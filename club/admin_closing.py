"""The closed clubs in the operator's admin: when each closed, until when its data is kept, and
the action that reopens one (``club.services.closing.club_reopen``)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import ClubClosing
from .services.closing import club_reopen


@admin.register(ClubClosing)
class ClubClosingAdmin(admin.ModelAdmin):
    list_display = ("club", "slug", "closed_at", "closed_by", "purge_after", "emailed_at")
    list_select_related = ("club", "closed_by")
    ordering = ("purge_after",)
    readonly_fields = (
        "club",
        "slug",
        "closed_at",
        "closed_by",
        "purge_after",
        "memberships",
        "federations",
        "emailed_at",
    )
    actions = ["reopen"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A club is closed by its admin, from the club's pages: with its archive offered first.
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ClubClosing | None = None) -> bool:
        # Deleting the row would leave the club hidden at its secret address: reopen instead.
        return False

    @admin.action(description=gettext_lazy("Rouvrir les clubs choisis"))
    def reopen(self, request: HttpRequest, queryset: QuerySet[ClubClosing]) -> None:
        for closing in queryset.select_related("club"):
            try:
                club = club_reopen(closing)
            except ValidationError as refused:
                self.message_user(request, " ".join(refused.messages), messages.ERROR)
                continue
            self.message_user(
                request,
                _("%(club)s est rouvert ; ses fédérations doivent l'inviter à nouveau.")
                % {"club": club.name},
                messages.SUCCESS,
            )
