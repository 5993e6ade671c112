"""Nights stored with the French default name of their date ("Soirée du 9 mai 2024", as the
demo club's were) become unnamed: the site then calls them by that default in the reader's
language (``games.models.night_title``) instead of in French on an English or Dutch page.
The French page reads exactly what it read before."""

from django.db import migrations
from django.utils import translation
from django.utils.formats import date_format

def french_defaults(date):
    """The names the site gives an unnamed night of ``date`` in French ("1er" too)."""
    with translation.override("fr"):
        month = date_format(date, "F Y")
    days = [str(date.day)] + (["1er"] if date.day == 1 else [])
    return {f"Soirée du {day} {month}" for day in days}


def default_names_cleared(apps, schema_editor):
    Tournament = apps.get_model("games", "Tournament")
    nights = Tournament.objects.filter(name__startswith="Soirée du ")
    for pk, club, date, name in nights.values_list("pk", "club_id", "date", "name"):
        # A club's night of that date already unnamed keeps its place (one name a date).
        if name in french_defaults(date) and not Tournament.objects.filter(
            club_id=club, date=date, name=""
        ).exists():
            Tournament.objects.filter(pk=pk).update(name="")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_calendar_reply_comment_guests_and_nudges"),
    ]

    operations = [
        migrations.RunPython(default_names_cleared, migrations.RunPython.noop),
    ]
