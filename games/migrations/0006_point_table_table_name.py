"""The point tables' database table takes its app's name, and its content type (the admin's
permissions and history) follows it."""

from django.db import migrations


def content_type_to_games(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="games", model="pointtable").exists():
        ContentType.objects.filter(app_label="scoring", model="pointtable").update(
            app_label="games"
        )


def content_type_to_scoring(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="scoring", model="pointtable").exists():
        ContentType.objects.filter(app_label="games", model="pointtable").update(
            app_label="scoring"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0005_point_table_moves_to_games"),
        ("scoring", "0002_point_table_moves_to_games"),
    ]

    operations = [
        migrations.AlterModelTable(name="pointtable", table=None),
        migrations.RunPython(content_type_to_games, content_type_to_scoring),
    ]
