"""The point tables' database table takes its app's name, and its content type (the admin's
permissions and history) follows it."""

from django.db import migrations


def content_type_to_games(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    LogEntry = apps.get_model("admin", "LogEntry")
    old = ContentType.objects.filter(app_label="scoring", model="pointtable").first()
    if old is None:
        return
    new = ContentType.objects.filter(app_label="games", model="pointtable").first()
    if new is None:
        old.app_label = "games"
        old.save(update_fields=["app_label"])
        return
    # Both exist (a post_migrate ran in between): the admin's history and the permissions
    # granted move to the new one, then the old one goes.
    LogEntry.objects.filter(content_type=old).update(content_type=new)
    known = set(Permission.objects.filter(content_type=new).values_list("codename", flat=True))
    for permission in Permission.objects.filter(content_type=old):
        if permission.codename in known:
            replacement = Permission.objects.get(content_type=new, codename=permission.codename)
            replacement.group_set.add(*permission.group_set.all())
            replacement.user_set.add(*permission.user_set.all())
            permission.delete()
        else:
            permission.content_type = new
            permission.save(update_fields=["content_type"])
    old.delete()


def content_type_to_scoring(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="scoring", model="pointtable").exists():
        ContentType.objects.filter(app_label="games", model="pointtable").update(
            app_label="scoring"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0005_point_table_moves_to_games"),
        ("scoring", "0002_point_table_moves_to_games"),
    ]

    operations = [
        migrations.AlterModelTable(name="pointtable", table=None),
        migrations.RunPython(content_type_to_games, content_type_to_scoring),
    ]
