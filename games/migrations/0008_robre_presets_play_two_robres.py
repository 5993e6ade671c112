"""The robre presets (robre10, robre5) now play a partie simple 2 as seed 000 says: the first
team to win two robres wins the partie (scoring-rules.md §2), where the shipped tables ended the
partie after one robre.

A stored table that is still exactly the old shipped preset gets ``"robres": 2``: in place
when no deal was scored with it, else as its next version (nights already scored keep the
version they were scored with). A club's own edited copy is left as it is."""

import hashlib
import json

from django.db import migrations

FICHES = {
    "per_manche": [
        {"losers_from": 0, "fiches": 3},
        {"losers_from": 1, "fiches": 2},
        {"losers_from": 5, "fiches": 1},
    ],
}
OLD_PRESETS = {
    "robre10": {
        "format": "point-table/1",
        "game": "whist",
        "name": "robre10",
        "label": "Robre, manches de 10 points",
        "trick_value": 2,
        "honours": {"three": 2, "four": 4},
        "target": 10,
        "manches": 2,
        "partie_ends": "won",
        "partie_value": "fiches",
        "fiches": {**FICHES, "partie_bonus": 4},
        "chante_at": 8,
        "revoke_tricks": 2,
    },
    "robre5": {
        "format": "point-table/1",
        "game": "whist",
        "name": "robre5",
        "label": "Robre, manches de 5 points",
        "trick_value": 1,
        "honours": {"three": 2, "four": 4},
        "target": 5,
        "manches": 2,
        "partie_ends": "won",
        "partie_value": "fiches",
        "fiches": {**FICHES, "partie_bonus": 2},
        "chante_at": None,
        "revoke_tricks": 2,
    },
}


def _checksum(data):
    # games.models.point_table_checksum, as it is when this migration is written.
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def two_robres(apps, schema_editor):
    PointTable = apps.get_model("games", "PointTable")
    Deal = apps.get_model("games", "Deal")
    for name, old in OLD_PRESETS.items():
        latest = PointTable.objects.filter(name=name).order_by("-version").first()
        if latest is None or latest.data != old:
            continue
        data = {**old, "robres": 2}
        if Deal.objects.filter(poule__tournament__point_table=latest).exists():
            PointTable.objects.create(
                game=latest.game,
                name=name,
                version=latest.version + 1,
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
        ("games", "0007_poule_corrections"),
    ]

    operations = [
        migrations.RunPython(two_robres, migrations.RunPython.noop),
    ]
