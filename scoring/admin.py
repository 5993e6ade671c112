from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from . import services
from .models import PointTable, PouleStanding, RankingLine, RankingSnapshot, TournamentStanding


@admin.register(PointTable)
class PointTableAdmin(admin.ModelAdmin):
    list_display = ["name", "version", "label", "game", "created"]
    list_filter = ["game", "name"]
    search_fields = ["name", "label"]
    readonly_fields = ["checksum", "grid"]
    fields = ["game", "name", "version", "label", "data", "checksum", "grid"]

    @admin.display(description=_("Tableau des points"))
    def grid(self, table: PointTable) -> str:
        """Belgian whist tables as the club reads them: a row per contract, a column per trick
        count, declarer's points over each defender's."""
        rows = (table.data or {}).get("rows") if isinstance(table.data, dict) else None
        if not rows:
            return "—"
        head = format_html_join("", "<th>{}</th>", ((t,) for t in range(14)))
        body = format_html_join(
            "",
            "<tr><th>{} {}</th><td>{}</td>{}</tr>",
            (
                (
                    row.get("contract"),
                    row.get("bid") or "",
                    row.get("side"),
                    format_html_join(
                        "",
                        "<td>{}<br><small>{}</small></td>",
                        zip(row.get("declarer", []), row.get("defender", []), strict=False),
                    ),
                )
                for row in rows
            ),
        )
        return format_html(
            '<table class="point-grid"><thead><tr><th>{}</th><th>{}</th>{}</tr></thead>'
            "<tbody>{}</tbody></table>",
            _("Contrat"),
            _("Camp"),
            head,
            body,
        )

    def save_model(self, request, obj, form, change):
        # A used table is never edited in place: the change becomes its next version.
        if change:
            original = PointTable.objects.get(pk=obj.pk)
            revised = services.point_table_revise(original, obj.data, label=obj.label)
            obj.pk, obj.version = revised.pk, revised.version
        else:
            super().save_model(request, obj, form, change)


@admin.register(PouleStanding)
class PouleStandingAdmin(admin.ModelAdmin):
    list_display = ["poule", "rank", "player", "game_points", "tournament_points", "tied"]
    list_filter = ["poule__tournament__club"]
    search_fields = ["player__display_name"]
    list_select_related = ["poule", "player"]


@admin.register(TournamentStanding)
class TournamentStandingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rank", "player", "tournament_points", "game_points", "tied"]
    list_filter = ["tournament__club", "tournament__season"]
    search_fields = ["player__display_name", "tournament__name"]
    list_select_related = ["tournament", "player"]


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
