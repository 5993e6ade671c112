"""The IWWA preset gives troela (trou 9) 24 points each at 13 tricks, where the shipped table
gave 28 (scoring-rules.md §1.5: all 13 tricks double the row's own formula at 13, as every
other row of the preset does; troela's formula gives 12 there, so 24).

Only the shared preset, where it is still exactly the table that was shipped, is fixed: in
place when no deal was scored with it, else as its next version (nights already scored keep
the version they were scored with, as every change of a point table does). A club's own
version of the table (its admin changed a cell and saved it) is left as it is: it is the
club's own grid, which the site never rewrites; its admin changes that one cell if the club
follows the championship rules."""

import copy
import hashlib
import json

from django.db import migrations

# The IWWA preset as shipped before this migration (scoring/tables/iwwa.json).
OLD_IWWA = json.loads(
    """
{
  "format": "point-table/1",
  "game": "belgian_whist",
  "name": "iwwa",
  "label": "IWWA (championnat de Belgique)",
  "zero_sum": true,
  "rows": [
    {"contract": "emballage", "bid": 8, "side": "pair", "needed": 8, "declarer": [-20, -18, -16, -14, -12, -10, -8, -6, 2, 3, 4, 5, 6, 14], "defender": [20, 18, 16, 14, 12, 10, 8, 6, -2, -3, -4, -5, -6, -14]},
    {"contract": "solo", "bid": 5, "side": "solo", "needed": 5, "declarer": [-36, -30, -24, -18, -12, 6, 9, 12, 15, 18, 21, 24, 27, 60], "defender": [12, 10, 8, 6, 4, -2, -3, -4, -5, -6, -7, -8, -9, -20]},
    {"contract": "trou", "bid": 8, "side": "pair", "needed": 8, "declarer": [-20, -18, -16, -14, -12, -10, -8, -6, 4, 6, 8, 10, 12, 28], "defender": [20, 18, 16, 14, 12, 10, 8, 6, -4, -6, -8, -10, -12, -28]},
    {"contract": "trou", "bid": 9, "side": "pair", "needed": 9, "declarer": [-22, -20, -18, -16, -14, -12, -10, -8, -6, 4, 6, 8, 10, 28], "defender": [22, 20, 18, 16, 14, 12, 10, 8, 6, -4, -6, -8, -10, -28]},
    {"contract": "abondance", "bid": 9, "side": "solo", "needed": 9, "declarer": [-15, -15, -15, -15, -15, -15, -15, -15, -15, 15, 15, 15, 15, 15], "defender": [5, 5, 5, 5, 5, 5, 5, 5, 5, -5, -5, -5, -5, -5]},
    {"contract": "abondance", "bid": 10, "side": "solo", "needed": 10, "declarer": [-18, -18, -18, -18, -18, -18, -18, -18, -18, -18, 18, 18, 18, 18], "defender": [6, 6, 6, 6, 6, 6, 6, 6, 6, 6, -6, -6, -6, -6]},
    {"contract": "abondance", "bid": 11, "side": "solo", "needed": 11, "declarer": [-24, -24, -24, -24, -24, -24, -24, -24, -24, -24, -24, 24, 24, 24], "defender": [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, -8, -8, -8]},
    {"contract": "abondance", "bid": 12, "side": "solo", "needed": 12, "declarer": [-27, -27, -27, -27, -27, -27, -27, -27, -27, -27, -27, -27, 27, 27], "defender": [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, -9, -9]},
    {"contract": "grande_misere", "bid": null, "side": "each", "needed": 0, "declarer": [21, -21, -21, -21, -21, -21, -21, -21, -21, -21, -21, -21, -21, -21], "defender": [-7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]},
    {"contract": "grande_misere_table", "bid": null, "side": "each", "needed": 0, "declarer": [42, -42, -42, -42, -42, -42, -42, -42, -42, -42, -42, -42, -42, -42], "defender": [-14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14]},
    {"contract": "chelem", "bid": 13, "side": "solo", "needed": 13, "declarer": [-90, -90, -90, -90, -90, -90, -90, -90, -90, -90, -90, -90, -90, 90], "defender": [30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, -30]}
  ]
}
"""
)
TROELA_AT_13 = 2 * (4 + 2 * (13 - 9))  # 24


def _checksum(data):
    # games.models.point_table_checksum, as it is when this migration is written.
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def fixed_iwwa():
    data = copy.deepcopy(OLD_IWWA)
    for row in data["rows"]:
        if row["contract"] == "trou" and row["bid"] == 9:
            row["declarer"][13], row["defender"][13] = TROELA_AT_13, -TROELA_AT_13
    return data


def troela_24(apps, schema_editor):
    PointTable = apps.get_model("games", "PointTable")
    Deal = apps.get_model("games", "Deal")
    shared = PointTable.objects.filter(name="iwwa", club__isnull=True).order_by("-version")
    latest = shared.first()
    if latest is None or latest.data != OLD_IWWA:
        return
    data = fixed_iwwa()
    if Deal.objects.filter(poule__tournament__point_table=latest).exists():
        # The next number of the name across the site, as a revised table takes it.
        top = PointTable.objects.filter(name="iwwa").order_by("-version").first().version
        PointTable.objects.create(
            game=latest.game,
            name=latest.name,
            version=top + 1,
            label=latest.label,
            data=data,
            checksum=_checksum(data),
        )
    else:
        latest.data = data
        latest.checksum = _checksum(data)
        latest.save(update_fields=["data", "checksum"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_unnamed_nights_default_name"),
    ]

    operations = [
        migrations.RunPython(troela_24, migrations.RunPython.noop),
    ]
