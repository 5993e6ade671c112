"""``Deal.number`` was the deal's place in the poule's playing order, not the number the sheet
prints (a pass takes none: games/numbering.py): renamed ``position``, as the corrections'
``DealChange.number`` that holds the same place. The columns are renamed; no row changes. The
two constraints keep their names and follow the column in the database (a rename carries
them), so only the migration state learns their new field."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_iwwa_troela_24_at_13_tricks"),
    ]

    operations = [
        migrations.RenameField(model_name="deal", old_name="number", new_name="position"),
        migrations.RenameField(model_name="dealchange", old_name="number", new_name="position"),
        migrations.AlterField(
            model_name="deal",
            name="position",
            field=models.PositiveSmallIntegerField(verbose_name="place dans la poule"),
        ),
        migrations.AlterField(
            model_name="dealchange",
            name="position",
            field=models.PositiveSmallIntegerField(verbose_name="place dans la poule"),
        ),
        migrations.AlterModelOptions(
            name="deal",
            options={
                "ordering": ["poule", "position"],
                "verbose_name": "donne",
                "verbose_name_plural": "donnes",
            },
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="deal", name="deal_number_unique"),
                migrations.RemoveConstraint(model_name="deal", name="deal_number_positive"),
                migrations.AddConstraint(
                    model_name="deal",
                    constraint=models.UniqueConstraint(
                        fields=("poule", "position"), name="deal_number_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="deal",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("position__gte", 1)), name="deal_number_positive"
                    ),
                ),
            ],
        ),
    ]
