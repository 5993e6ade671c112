"""Season pages are addressed by a slug, not by the name (a name may hold a slash or any byte
a URL cannot carry): every season gets one from its name, unique within its club."""

from django.db import migrations, models
from django.utils.text import slugify


def fill_slugs(apps, schema_editor):
    Season = apps.get_model("club", "Season")
    taken = set()
    for season in Season.objects.order_by("club_id", "start", "pk"):
        base = slugify(season.name.replace("/", "-"))[:40] or "saison"
        slug, n = base, 1
        while (season.club_id, slug) in taken:
            n += 1
            slug = f"{base}-{n}"
        taken.add((season.club_id, slug))
        season.slug = slug
        season.save(update_fields=["slug"])


class Migration(migrations.Migration):
    dependencies = [("club", "0006_throttle_events")]

    operations = [
        migrations.AddField(
            model_name="season",
            name="slug",
            field=models.SlugField(default="", max_length=40, verbose_name="identifiant"),
            preserve_default=False,
        ),
        migrations.RunPython(fill_slugs, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(
                fields=("club", "slug"), name="season_slug_unique_per_club"
            ),
        ),
    ]
