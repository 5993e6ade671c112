from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from club.admin import SeasonFilter
from club.models import FederationSeason

from . import services
from .models import Deal, DealChange, PointTable, Poule, RoundDraw, Seat, Tournament
from .numbering import deal_numbers


@admin.register(PointTable)
class PointTableAdmin(admin.ModelAdmin):
    list_display = ["name", "version", "label", "game", "created"]
    list_filter = ["game", "name"]
    search_fields = ["name", "label"]
    readonly_fields = ["checksum", "grid"]
    fields = ["game", "name", "version", "label", "data", "checksum", "grid"]

    @admin.display(description=_("Tableau des points"))
    def grid(self, point_table: PointTable) -> str:
        """Belgian whist tables as the club reads them: a row per contract, a column per trick
        count, declarer's points over each defender's."""
        rows = (point_table.data or {}).get("rows") if isinstance(point_table.data, dict) else None
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


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "player"]
    autocomplete_fields = ["player"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    def has_change_permission(self, request, obj=None):  # seats change through the draw only
        return False

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class DealInline(admin.TabularInline):
    """Deals are shown with their points; they change through the score sheet's services, so
    points and standings can never disagree with the data."""

    model = Deal
    extra = 0
    fields = ["position", "data", "dealer", "points", "counted", "recorded_by", "recorded_at"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("recorded_by")

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PouleInline(admin.TabularInline):
    model = Poule
    extra = 0
    fields = ["round", "table", "counted_deals"]
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """What the services write (draws, corrections) is shown, never edited by hand."""

    extra = 0

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RoundDrawInline(ReadOnlyInline):
    model = RoundDraw
    fields = ["round", "method", "seed", "repeats", "drawn_by", "drawn_at"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("drawn_by")


class DealChangeInline(ReadOnlyInline):
    model = DealChange
    fields = ["position", "action", "before", "after", "by", "at"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("by")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["date", "name", "club", "season", "game", "point_table", "status"]
    list_filter = ["club", ("season", SeasonFilter), "game", "status"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "date"
    list_select_related = ["club", "season__club", "point_table"]
    autocomplete_fields = ["club", "season", "point_table"]
    filter_horizontal = ["present"]
    inlines = [RoundDrawInline, PouleInline]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "federation_season":
            # A federation season is named with its federation: read with it, in one query.
            kwargs["queryset"] = FederationSeason.objects.select_related("federation")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Poule)
class PouleAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "round", "table", "counted_deals"]
    list_filter = ["tournament__club", "round"]
    search_fields = ["tournament__name"]
    # An unnamed night is named after its club.
    list_select_related = ["tournament__club"]
    readonly_fields = ["tournament", "round", "table", "counted_deals"]
    inlines = [SeatInline, DealInline, DealChangeInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["__str__", "poule", "dealer", "counted", "recorded_at"]
    list_filter = ["counted", "poule__tournament__club"]
    list_select_related = ["poule"]
    readonly_fields = [
        "poule",
        "sheet_number",
        "position",
        "data",
        "dealer",
        "points",
        "counted",
        "recorded_by",
    ]

    @admin.display(description=_("Numéro sur la feuille"))
    def sheet_number(self, deal: Deal) -> str:
        """The number the sheet prints (a pass takes none), from the poule's deals: one deal's
        page only, never the list (a query per row)."""
        sheet = list(deal.poule.deals.order_by("position"))
        number = deal_numbers(deal.poule.tournament.game, sheet)[sheet.index(deal)]
        return "—" if number is None else str(number)

    def has_add_permission(self, request):
        return False
