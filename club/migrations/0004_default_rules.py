"""A club's default point table becomes a point table's name (a preset): a night uses that
table's latest version. ``club`` sits below the app of point tables and holds no key to it."""

from django.db import migrations, models

from scoring.engine.tables import PRESET_GAME, PRESETS


def default_rules_from_table(apps, schema_editor):
    Club = apps.get_model("club", "Club")
    for club in Club.objects.select_related("default_point_table"):
        table = club.default_point_table
        if table is not None and table.name in PRESET_GAME:
            club.default_rules = table.name
        else:
            club.default_rules = PRESETS.get(club.default_game, PRESETS["belgian_whist"])[0]
        club.save(update_fields=["default_rules"])


def default_table_from_rules(apps, schema_editor):
    Club = apps.get_model("club", "Club")
    for club in Club.objects.all():
        club.default_game = PRESET_GAME.get(club.default_rules, "belgian_whist")
        club.save(update_fields=["default_game"])


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0003_invitations"),
        ("scoring", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="default_rules",
            field=models.CharField(
                choices=[("Whist belge", [("rcwhist", "rcwhist"), ("whisthub", "whisthub"), ("iwwa", "iwwa")]), ("Whist classique", [("whist7", "whist7"), ("simple10", "simple10"), ("robre10", "robre10"), ("robre5", "robre5")]), ("Cœurs", [("coeurs", "coeurs"), ("coeurs13", "coeurs13")]), ("Bésigue", [("besigue", "besigue"), ("sans_retourne", "sans_retourne"), ("a_trois", "a_trois"), ("a_quatre", "a_quatre"), ("chinois", "chinois"), ("huit_paquets", "huit_paquets"), ("rubicon", "rubicon")])],
                default="rcwhist",
                max_length=60,
                verbose_name="tableau des points par défaut",
            ),
        ),
        migrations.RunPython(default_rules_from_table, default_table_from_rules),
        migrations.RemoveField(model_name="club", name="default_point_table"),
        migrations.RemoveField(model_name="club", name="default_game"),
    ]
