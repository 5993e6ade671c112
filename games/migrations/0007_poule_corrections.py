"""Each poule counts the corrections and removals of its history, so that a sheet without any
does not read it after every deal. Existing poules get their count."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_corrections(apps, schema_editor):
    Poule = apps.get_model("games", "Poule")
    DealChange = apps.get_model("games", "DealChange")
    counts = (
        DealChange.objects.filter(poule=OuterRef("pk"))
        .values("poule")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Poule.objects.update(corrections=Coalesce(Subquery(counts), 0))


class Migration(migrations.Migration):
    dependencies = [("games", "0006_point_table_table_name")]

    operations = [
        migrations.AddField(
            model_name="poule",
            name="corrections",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="corrections"),
        ),
        migrations.RunPython(count_corrections, migrations.RunPython.noop),
    ]
