"""Each player's shown name folded (``Player.name_key``), filled for the players already
there: the name search reads it."""

from django.db import migrations

import club.models.players

BATCH = 1000


def fill(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    field = Player._meta.get_field("name_key")
    players = list(Player.objects.only("pk", "display_name").order_by("pk"))
    for player in players:
        # The field's own rule (its ``pre_save``), as every later write of the row applies it.
        field.pre_save(player, add=False)
    Player.objects.bulk_update(players, ["name_key"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0021_club_room_last_deals"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=club.models.players.NameKeyField(
                blank=True,
                db_index=True,
                default="",
                editable=False,
                max_length=240,
                source="display_name",
                verbose_name="nom replié",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
