"""Point tables move from ``scoring`` to ``games``, the app of what is played, below the apps
that score it. The model changes app in Django's state only: its table and every row stay
(0006 then gives the table its new app's name)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0003_invitations"),
        ("games", "0004_result_emails"),
        ("scoring", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="PointTable",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("game", models.CharField(choices=[("belgian_whist", "Whist belge"), ("whist", "Whist classique"), ("hearts", "Cœurs"), ("besigue", "Bésigue")], max_length=20, verbose_name="jeu")),
                        ("name", models.SlugField(help_text="Nom du preset, ex. rcwhist.", max_length=60, verbose_name="nom")),
                        ("version", models.PositiveIntegerField(default=1, verbose_name="version")),
                        ("label", models.CharField(blank=True, max_length=120, verbose_name="libellé")),
                        ("data", models.JSONField(verbose_name="données")),
                        ("checksum", models.CharField(editable=False, max_length=64, verbose_name="empreinte")),
                        ("created", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "verbose_name": "tableau des points",
                        "verbose_name_plural": "tableaux des points",
                        "ordering": ["game", "name", "-version"],
                        "constraints": [models.UniqueConstraint(fields=("name", "version"), name="point_table_version_unique"), models.CheckConstraint(condition=models.Q(("version__gte", 1)), name="point_table_version_positive")],
                        "db_table": "scoring_pointtable",
                    },
                ),
                migrations.AlterField(
                    model_name="tournament",
                    name="point_table",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="tournaments", to="games.pointtable", verbose_name="tableau des points"),
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterField(
            model_name="tournament",
            name="present",
            field=models.ManyToManyField(blank=True, related_name="tournaments_present", to="club.player", verbose_name="joueurs présents"),
        ),
    ]
