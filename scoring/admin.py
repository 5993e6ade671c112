from django.contrib import admin

from club.admin import SeasonFilter

from .models import PouleStanding, RankingLine, RankingSnapshot, TournamentStanding


@admin.register(PouleStanding)
class PouleStandingAdmin(admin.ModelAdmin):
    list_display = ["poule", "rank", "player", "game_points", "tournament_points", "tied"]
    list_filter = ["poule__tournament__club"]
    search_fields = ["player__display_name"]
    list_select_related = ["poule", "player"]
    autocomplete_fields = ["poule", "player"]


@admin.register(TournamentStanding)
class TournamentStandingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rank", "player", "tournament_points", "game_points", "tied"]
    list_filter = ["tournament__club", ("tournament__season", SeasonFilter)]
    search_fields = ["player__display_name", "tournament__name"]
    # An unnamed night is named after its club.
    list_select_related = ["tournament__club", "player"]
    autocomplete_fields = ["tournament", "player"]


class RankingLineInline(admin.TabularInline):
    model = RankingLine
    extra = 0
    fields = [
        "position",
        "rank",
        "player",
        "tournament_points",
        "game_points",
        "tournaments_played",
    ]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")


@admin.register(RankingSnapshot)
class RankingSnapshotAdmin(admin.ModelAdmin):
    list_display = ["season", "computed_at", "published_at", "tournaments"]
    list_filter = ["season__club"]
    list_select_related = ["season__club"]
    readonly_fields = ["season", "computed_at", "published_at", "rules", "tournaments"]
    inlines = [RankingLineInline]


@admin.register(RankingLine)
class RankingLineAdmin(admin.ModelAdmin):
    list_display = ["snapshot", "position", "rank", "player", "tournament_points"]
    list_select_related = ["snapshot__season__club", "player"]
    search_fields = ["player__display_name"]
    # A snapshot is named after its season and club: a select would read them for every one.
    raw_id_fields = ["snapshot"]
    autocomplete_fields = ["player"]
