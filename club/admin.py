from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.labels import point_table_label, rules_choices

from . import signup_admin  # noqa: F401  (the clubs' sign-ups, registered there)
from .auth_forms import OperatorAuthenticationForm
from .models import (
    ApiToken,
    Club,
    Federation,
    FederationAdmin,
    FederationSeason,
    Invitation,
    Membership,
    Player,
    Season,
)
from .services import (
    federation_club_join,
    federation_pages_changed,
    member_add,
    player_pages_changed,
    published_pages_changed,
)


def operator_only(request) -> bool:
    """Django's admin is the site operator's tool: it shows every club's data. Only a
    superuser enters; a club's admin runs his club from the site's own pages (and a staff
    flag alone, given by mistake, opens nothing)."""
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = operator_only
# Locked like every other way in (the backend counts); this form says so in words.
admin.site.login_form = OperatorAuthenticationForm


class ChangesPublishedPages:
    """What the site's operator changes here shows on the clubs' public pages (names, seasons,
    memberships): their cached copies are marked stale, as the club's own services do."""

    def pages_changed(self, obj):
        if isinstance(obj, Player):
            player_pages_changed(obj)
        else:
            published_pages_changed(obj.pk if isinstance(obj, Club) else obj.club_id)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self.pages_changed(obj)

    def delete_model(self, request, obj):
        self.pages_changed(obj)
        super().delete_model(request, obj)


# Admin pages make as many queries for a hundred rows as for one: what a row's name or its
# columns read is selected with it (tests/test_admin_queries.py).


class SeasonFilter(admin.RelatedFieldListFilter):
    """A filter by season: a season is named with its club, read with it in one query."""

    def field_choices(self, field, request, model_admin):
        ordering = self.field_admin_ordering(field, request, model_admin)
        seasons = Season.objects.select_related("club")
        if ordering:
            seasons = seasons.order_by(*ordering)
        return [(season.pk, str(season)) for season in seasons]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player", "club")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "club":
            # The clubs are read once for every membership row, not once a row.
            field.choices = list(field.choices)
        return field


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "start", "end", "ranking_best_n", "ranking_min_tournaments"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("club")


class ClubAddForm(forms.ModelForm):
    """A new club comes with its first admin (a player of the club, who then opens his
    account by the invitation sent from the club's members page or ``manage.py club_create``)."""

    first_admin = forms.CharField(label=_("premier administrateur (nom)"), max_length=120)
    first_admin_email = forms.EmailField(label=_("son e-mail"), required=False)

    class Meta:
        model = Club
        fields = ["name", "slug", "short_name", "default_rules", "language"]


@admin.register(Club)
class ClubAdmin(ChangesPublishedPages, admin.ModelAdmin):
    list_display = ["name", "slug", "rules_label", "deals_per_poule_4", "deals_per_poule_5"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SeasonInline]

    @admin.display(description=_("tableau des points par défaut"), ordering="default_rules")
    def rules_label(self, club: Club) -> str:
        return point_table_label(club.default_rules)

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        # The point tables by their label, never by their file's code (rcwhist, a_trois).
        if db_field.name == "default_rules":
            kwargs["choices"] = rules_choices()
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = ClubAddForm
            kwargs["fields"] = None
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [
                (None, {"fields": [*ClubAddForm.Meta.fields, "first_admin", "first_admin_email"]})
            ]
        return super().get_fieldsets(request, obj)

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change and form.cleaned_data.get("first_admin"):
            member_add(
                obj,
                form.cleaned_data["first_admin"],
                start=timezone.localdate(),
                role=Membership.Role.ADMIN,
                email=form.cleaned_data.get("first_admin_email", ""),
            )


@admin.register(Player)
class PlayerAdmin(ChangesPublishedPages, admin.ModelAdmin):
    list_display = ["display_name", "first_name", "last_name", "email", "public_name", "user"]
    list_filter = ["public_name", "memberships__club"]
    search_fields = ["display_name", "first_name", "last_name", "email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(ChangesPublishedPages, admin.ModelAdmin):
    list_display = ["player", "club", "role", "status", "start", "end"]
    list_filter = ["club", "role", "status"]
    search_fields = ["player__display_name"]
    list_select_related = ["player", "club"]
    autocomplete_fields = ["player", "club"]


@admin.register(Season)
class SeasonAdmin(ChangesPublishedPages, admin.ModelAdmin):
    list_display = ["__str__", "club", "name", "start", "end"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    autocomplete_fields = ["club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Read-only: invitations are sent from the club's members page, where the e-mail goes out
    with its link; a row made here would have no link. The token's hash is never shown."""

    list_display = ["player", "club", "email", "created", "accepted_at", "invited_by"]
    list_filter = ["club"]
    search_fields = ["player__display_name", "email"]
    list_select_related = ["player", "club", "invited_by"]
    fields = ["club", "player", "email", "invited_by", "created", "accepted_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """The operator sees the API tokens and may revoke one (a leaked key): members make and
    name theirs in their profile, where the key is shown once; a row made here would have no
    key. The hash is never shown."""

    list_display = ["name", "user", "prefix", "read_only", "created", "last_used"]
    search_fields = ["name", "user__username", "user__email", "prefix"]
    list_select_related = ["user"]
    fields = ["user", "name", "prefix", "read_only", "created", "last_used"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class FederationAdminInline(admin.TabularInline):
    """Its administrators, listed; they are named on the federation's own management page
    (``/federations/<slug>/gestion/``, open to the operator too), where a player is found by
    name among the site's members."""

    model = FederationAdmin
    extra = 0
    fields = ["player", "since"]
    readonly_fields = ["player", "since"]

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).select_related("player", "federation")


class FederationSeasonInline(admin.TabularInline):
    model = FederationSeason
    extra = 0
    fields = ["name", "slug", "start", "end", "game", "counts", "ranking_best_n"]

    def get_queryset(self, request: Any) -> Any:
        # A season is named with its federation (each row's title).
        return super().get_queryset(request).select_related("federation")


@admin.register(Federation)
class FederationModelAdmin(admin.ModelAdmin):
    """The operator's view of the federations; their administrators run them from the site.
    A club he ticks here joins at once (the operator's road, on the club's word given to him);
    a federation's administrators can only invite one."""

    list_display = ["name", "slug"]
    exclude = ["pages_changed"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["clubs"]
    inlines = [FederationAdminInline, FederationSeasonInline]
    search_fields = ["name"]

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # Its public pages are cached from its stamp: a club added here shows at once.
        federation_pages_changed(form.instance.pk)
        # A club the operator added had perhaps been invited: that question is settled.
        federation = form.instance
        for club in federation.clubs.filter(
            federation_invitations__federation=federation,
            federation_invitations__status="pending",
        ):
            federation_club_join(federation, club, by=request.user)


# The closed clubs, with the action that reopens one, registered apart.
from . import admin_closing  # noqa: E402, F401
