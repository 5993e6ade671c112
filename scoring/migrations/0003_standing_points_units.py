"""Night standings keep their tournament points in whole units too, so that the database sums
a season's points exactly (``fields.PointUnitsField``)."""

from fractions import Fraction

from django.db import migrations

import scoring.fields


def fill_units(apps, schema_editor):
    """Each stored standing's points in units: a handful of distinct values, one update each."""
    standings = apps.get_model("scoring", "TournamentStanding").objects
    for points in standings.values_list("tournament_points", flat=True).distinct().order_by():
        standings.filter(tournament_points=points).update(
            points_units=scoring.fields.units_of(Fraction(points))
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_point_table_moves_to_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamentstanding",
            name="points_units",
            field=scoring.fields.PointUnitsField(default=0),
        ),
        migrations.RunPython(fill_units, migrations.RunPython.noop),
    ]
