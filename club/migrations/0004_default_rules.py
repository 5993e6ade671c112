"""A club's default point table becomes a point table's name (a preset): a night uses that
table's latest version. ``club`` sits below the app of point tables and holds no key to it."""

from django.db import migrations, models

# The presets when this migration was written, game by game (first: the game's default).
PRESETS = {
    "belgian_whist": ("rcwhist", "whisthub", "iwwa"),
    "whist": ("whist7", "simple10", "robre10", "robre5"),
    "hearts": ("coeurs", "coeurs13"),
    "besigue": ("besigue", "sans_retourne", "a_trois", "a_quatre", "chinois", "huit_paquets", "rubicon"),
}
PRESET_GAME = {name: game for game, names in PRESETS.items() for name in names}


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
    PointTable = apps.get_model("scoring", "PointTable")
    for club in Club.objects.all():
        club.default_game = PRESET_GAME.get(club.default_rules, "belgian_whist")
        club.default_point_table = (
            PointTable.objects.filter(name=club.default_rules).order_by("-version").first()
        )
        club.save(update_fields=["default_game", "default_point_table"])


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
