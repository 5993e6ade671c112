"""The guide (« Aide »): its pages, one a task, and the one place that says which guide section
explains which page of the site. The header's « ? » link reads it (config/context_processors.py);
a test walks the URLconf so that no page a person sees is forgotten here
(tests/front/test_guide.py). The guide's prose is per language, one template a page and a
language (templates/front/guide/<lang>/<slug>.html); its pictures are taken by
``manage.py guide_pictures`` into static/guide/<lang>/, with a manifest of the templates each
shows as they were then (``PICTURES``, ``template_hashes``): a test fails when a template
changed since its picture was taken."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

# The guide's pages in the order a new club meets them: slug → title.
PAGES = {
    "inscrire-un-club": _("Inscrire un club"),
    "importer-les-membres": _("Importer les membres"),
    "soiree": _("Mener une soirée"),
    "feuille": _("Noter à la table"),
    "feuille-papier": _("Encoder une feuille papier"),
    "publier": _("Publier"),
    "calendrier": _("Préparer le calendrier"),
    "cote": _("Lire la cote"),
    "site-du-club": _("Le site du club"),
}
GUIDE_LANGUAGES = ("fr", "en", "nl")

# Each page of the site (its URL name, with its namespace) → the guide's page and section.
SECTIONS = {
    "home": "inscrire-un-club#annuaire",
    "signup-start": "inscrire-un-club#adresse",
    "signup-sent": "inscrire-un-club#adresse",
    "signup-confirm": "inscrire-un-club#compte",
    "signup-club": "inscrire-un-club#le-club",
    "signup-season": "inscrire-un-club#saison",
    "signup-review": "inscrire-un-club#approbation",
    "club-detail": "inscrire-un-club#premiers-pas",
    "checklist-confirm": "inscrire-un-club#premiers-pas",
    "join-request": "inscrire-un-club#annuaire",
    "join-requests": "inscrire-un-club#demandes",
    "join-request-decide": "inscrire-un-club#demandes",
    "club-admin": "inscrire-un-club#premiers-pas",
    "members": "importer-les-membres#liste",
    "member-import": "importer-les-membres#fichier",
    "member-import-columns": "importer-les-membres#colonnes",
    "member-import-review": "importer-les-membres#verifier",
    "member-import-done": "importer-les-membres#verifier",
    "member-add": "importer-les-membres#un-par-un",
    "member-edit": "importer-les-membres#un-par-un",
    "member-role": "importer-les-membres#un-par-un",
    "member-end": "importer-les-membres#un-par-un",
    "member-resume": "importer-les-membres#un-par-un",
    "member-from-guest": "importer-les-membres#un-par-un",
    "invite": "importer-les-membres#invitations",
    "invitation-accept": "importer-les-membres#invitations",
    "games:tournament-create": "soiree#nouvelle-soiree",
    "games:tournament": "soiree#tirage",
    "games:presence": "soiree#presents",
    "games:player-add": "soiree#presents",
    "games:presence-search": "soiree#presents",
    "games:draw": "soiree#tirage",
    "games:seating": "soiree#tirage",
    "games:close": "soiree#cloture",
    "games:room": "soiree#ecran-de-salle",
    "room-link": "soiree#ecran-de-salle",
    "games:sheet": "feuille#la-feuille",
    "games:sheet-undo": "feuille#corriger",
    "games:deal-edit": "feuille#corriger",
    "games:deal-delete": "feuille#corriger",
    "offline": "feuille#hors-ligne",
    "games:paper-sheets": "feuille-papier#feuilles-vierges",
    "games:blank-sheets": "feuille-papier#feuilles-vierges",
    "games:sheet-entry": "feuille-papier#saisie",
    "games:results": "publier#resultats",
    "games:publish": "publier#publier",
    "games:unpublish": "publier#publier",
    "games:reopen": "publier#publier",
    "ranking": "publier#classement",
    "ranking-season": "publier#classement",
    "ranking-archive": "publier#classement",
    "ranking-publish": "publier#classement",
    "games:calendar": "calendrier#repondre",
    "games:calendar-answer": "calendrier#repondre",
    "games:calendar-reply": "calendrier#repondre",
    "games:calendar-manage": "calendrier#prevoir",
    "games:calendar-change": "calendrier#prevoir",
    "games:calendar-delete": "calendrier#prevoir",
    "games:calendar-cancel": "calendrier#prevoir",
    "games:calendar-replies": "calendrier#reponses",
    "games:calendar-record": "calendrier#reponses",
    "games:calendar-remind": "calendrier#reponses",
    "games:calendar-open": "calendrier#reponses",
    "my-calendar": "calendrier#mon-calendrier",
    "my-calendar-renew": "calendrier#mon-calendrier",
    "calendar-reminders-off": "calendrier#mon-calendrier",
    "ratings": "cote#la-cote",
    "night-ratings": "cote#la-cote",
    "club-statistics": "cote#statistiques",
    "player": "cote#statistiques",
    "player-statistics": "cote#statistiques",
    "my-results": "cote#mes-resultats",
    # The club's own site (clubsite): its home, pages, news, photos, contact and palmarès.
    "palmares": "site-du-club#accueil",
    "site-page": "site-du-club#pages",
    "site-pages": "site-du-club#pages",
    "site-page-add": "site-du-club#pages",
    "site-page-edit": "site-du-club#pages",
    "site-page-delete": "site-du-club#pages",
    "site-page-history": "site-du-club#pages",
    "site-page-restore": "site-du-club#pages",
    "point-table-page": "site-du-club#pages",
    "news": "site-du-club#actualites",
    "news-post": "site-du-club#actualites",
    "news-subscribe": "site-du-club#actualites",
    "news-manage": "site-du-club#actualites",
    "news-new": "site-du-club#actualites",
    "news-edit": "site-du-club#actualites",
    "news-publish": "site-du-club#actualites",
    "news-unpublish": "site-du-club#actualites",
    "news-delete": "site-du-club#actualites",
    "contact": "site-du-club#contact",
    "photo-albums": "site-du-club#photos",
    "photo-album": "site-du-club#photos",
    "photo": "site-du-club#photos",
    "photo-takedown": "site-du-club#photos",
    "photo-admin": "site-du-club#photos",
    "photo-album-add": "site-du-club#photos",
    "photo-album-edit": "site-du-club#photos",
    "photo-upload": "site-du-club#photos",
    "photo-album-delete": "site-du-club#photos",
    "photo-delete": "site-du-club#photos",
    "photo-takedown-decide": "site-du-club#photos",
}

# Pages a person sees that no task of the guide explains yet: their « ? » opens the guide's
# contents. Named so that a new page is a choice, not an oversight.
WITHOUT_SECTION = frozenset(
    {
        "privacy",
        "guide",
        "guide-page",
        "profile",
        "api-tokens",
        "api-token-revoke",
        "email-change-confirm",
        "claim-confirm",
        "claim-approve",
        "member-unlock",
        "member-merge",
        "member-merge-propose",
        "club-merges",
        "club-merge-decide",
        "my-merge-decide",
        "seasons",
        "season-edit",
        "ranking-import",
        "ranking-import-columns",
        "ranking-import-names",
        "imported-lines",
        "imported-line",
        "club-settings",
        "club-federation-answer",
        "club-close",
        "point-tables",
        "point-table",
        "point-table-compare",
        "federation",
        "federation-archive",
        "federation-ranking",
        "federation-admin",
        "federation-club-invite",
        "federation-invitation-withdraw",
        "federation-club-remove",
        "federation-admin-add",
        "federation-admin-remove",
        "federation-season-add",
        "federation-season-edit",
        "login",
        "logout",
        "password_change",
        "password_change_done",
        "password_reset",
        "password_reset_done",
        "password_reset_confirm",
        "password_reset_complete",
        # A bulk e-mail's way out, for every kind of e-mail the site sends.
        "unsubscribe",
    }
)

# Addresses that are no page for a person: files, feeds, the room screen's projector (no
# header there), the language switch's redirect.
NOT_A_PAGE = frozenset(
    {
        "healthz",
        "service-worker",
        "manifest",
        "favicon",
        "media",
        "robots",
        "sitemap",
        "club-colours",
        "club-archive",
        "member-import-left",
        "my-data",
        "member-feed",
        "room-by-key",
        "ranking-export",
        "games:calendar-feed",
        "games:results-export",
        "games:deals-export",
        "games:tournament-file",
        "set_language",
        "photo-file",
        "news-feed",
    }
)


# Each picture the guide shows → the templates of the page it shows (the page's own, Django's
# and Jinja2's, not the site's frame): when one changes, the picture is taken again
# (``manage.py guide_pictures``).
PICTURES = {
    "home.png": ("front/home.html", "club/signup/_offer.html"),
    "signup-club.png": ("club/signup/form_step.html", "club/signup/step_club.html"),
    "signup-checklist.png": ("club/club_detail.html", "club/signup/_checklist.html"),
    "members-import-columns.png": ("club/admin/import_base.html", "club/admin/member_import.html"),
    "members-import-review.png": ("club/admin/import_base.html", "club/admin/member_import.html"),
    "night-new.png": ("games/tournament_form.html",),
    "night-presence.png": ("games/presence.html",),
    "night-tables.png": ("games/tournament_detail.html",),
    "sheet.png": ("games/sheet.html",),
    "paper-entry.png": ("games/paper_entry.html",),
    "results.png": ("games/results.html", "games/poule_tables.html", "games/night_standings.html"),
    "ranking.png": ("club/ranking.html",),
    "calendar-manage.png": ("games/calendar/manage.html",),
    "calendar.png": ("games/calendar/calendar.html",),
    "ratings.png": ("club/ratings.html", "club/rating_rows.html"),
    "night-ratings.png": ("club/night_ratings.html",),
    "player-statistics.png": (
        "club/player_stats.html",
        "club/player_tables.html",
        "club/rating_moves.html",
        "club/line_chart.html",
    ),
    "site-home.png": (
        "club/club_detail.html",
        "clubsite/home_podium.html",
        "clubsite/home_album.html",
        "clubsite/news_latest.html",
        "clubsite/menu.html",
    ),
    "site-page.png": ("clubsite/page.html",),
    "site-album.png": ("clubsite/photos/album.html",),
}
PICTURES_FOLDER = Path(settings.BASE_DIR) / "static" / "guide"
# What the pictures were taken from: each template's content hash (a file's date is the
# checkout's, not the change's), written by ``guide_pictures`` beside the pictures.
MANIFEST = PICTURES_FOLDER / "manifest.json"


def template_hashes(names: set[str] | None = None) -> dict[str, str]:
    """The SHA-256 of each template the pictures show (``names``: of these only), today."""
    wanted = names or {name for templates in PICTURES.values() for name in templates}
    return {
        name: hashlib.sha256(_template_file(name).read_bytes()).hexdigest()
        for name in sorted(wanted)
    }


def _template_file(name: str) -> Path:
    """A template's file: Django's (``templates/``), else Jinja2's (``jinja2/``), where the
    rows of the pages measured slow are drawn (no name is in both)."""
    django = Path(settings.BASE_DIR) / "templates" / name
    return django if django.exists() else Path(settings.BASE_DIR) / "jinja2" / name


def manifest_write(pictures: set[str] | None = None) -> None:
    """The templates of the pictures taken (``pictures``: of these only, the others kept as
    they were when theirs were taken) as they are now."""
    hashes = template_hashes()
    if pictures is not None:
        shown = {name for picture in pictures for name in PICTURES[picture]}
        kept = json.loads(MANIFEST.read_text())["templates"] if MANIFEST.exists() else {}
        hashes = {name: kept[name] for name in kept if name not in shown} | {
            name: hashes[name] for name in shown
        }
    MANIFEST.write_text(json.dumps({"templates": hashes}, indent=1, sort_keys=True) + "\n")


def guide_language() -> str:
    """The guide's language for the page's: its own when the guide has it, French else."""
    language = (get_language() or "fr")[:2]
    return language if language in GUIDE_LANGUAGES else "fr"


def page_key(namespace: str, url_name: str | None) -> str | None:
    if not url_name:
        return None
    return f"{namespace}:{url_name}" if namespace else url_name


def help_url(key: str | None) -> str:
    """Where the « ? » of the page named ``key`` leads: its guide section, or the contents."""
    target = SECTIONS.get(key or "")
    if target is None:
        return reverse("guide")
    slug, _sep, anchor = target.partition("#")
    return reverse("guide-page", args=[slug]) + (f"#{anchor}" if anchor else "")
