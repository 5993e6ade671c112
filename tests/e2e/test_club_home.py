"""The « Done when » of the club's site (#40), walked on a 390 px phone in one browser with
one login: the club's admin writes « Le club » and « Règlement interne », posts a news item
with a photo and sends an album of 12 photos; a visitor finds them all from the club's page,
whose pictures keep their box while they load (nothing moves) and which never runs off the
screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from clubsite.models import Photo
from clubsite.photos.demo import phone_jpeg
from tests.clubsite.helpers import photo_upload
from tests.e2e.conftest import page_width

from .test_club_night import log_in
from .test_club_photos import every_image_loaded

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_390 = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PAGES = {
    "Le club": "## Où et quand\n\nLe **deuxième jeudi** du mois, salle du Manège.",
    "Règlement interne": "1. On arrive à 19 h 45.\n2. Le téléphone reste en poche.",
}


def fits_the_phone(page: Page) -> None:
    width = page_width(page)
    assert width <= PHONE_390["viewport"]["width"], f"{page.url} is {width}px wide"


def page_written(admin: Page, base: str, slug: str, title: str, text: str) -> None:
    admin.goto(f"{base}/clubs/{slug}/gestion/")
    admin.click(".admin-index >> text=Pages du site du club")
    admin.click("text=Nouvelle page")
    admin.fill("#id_title", title)
    admin.fill("#id_text", text)
    admin.click("form.stacked button[type=submit]")
    expect(admin.locator(".messages")).to_contain_text(f"Page « {title} » enregistrée")


def test_an_admin_builds_the_club_site_on_a_phone_and_a_visitor_finds_it_all(
    live_server, new_context, club, season, club_admin, settings, tmp_path
):
    # The news photo served as uploads are (front/views/media.py reads the media folder).
    settings.MEDIA_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    }
    base, slug = live_server.url, club.slug
    admin = new_context(locale="fr-BE", **PHONE_390).new_page()
    log_in(admin, base, club_admin.username)
    for title, text in PAGES.items():
        page_written(admin, base, slug, title, text)

    admin.goto(f"{base}/clubs/{slug}/gestion/")
    admin.click(".admin-index >> text=Actualités")
    admin.click("text=Écrire une actualité")
    admin.fill("#id_title", "Souper annuel du club")
    admin.fill("#id_text", "Rendez-vous **samedi 14 février** à 19 h.")
    upload = photo_upload((2400, 1600))
    admin.set_input_files(
        "#id_photo",
        files=[{"name": upload.name, "mimeType": "image/jpeg", "buffer": upload.read()}],
    )
    admin.click("button[value=publish]")
    expect(admin.locator(".messages")).to_contain_text("Actualité publiée")

    admin.goto(f"{base}/clubs/{slug}/gestion/")
    admin.click(".admin-index >> text=Photos du club")
    admin.click("text=Nouvel album")
    admin.fill("#id_title", "Soirée de mars")
    admin.fill("#id_date", "2025-03-13")
    admin.click("text=Créer l'album")
    admin.set_input_files(
        "input[type=file][name=photos]",
        [
            {
                "name": f"IMG_{n:04}.jpg",
                "mimeType": "image/jpeg",
                "buffer": phone_jpeg(f"Photo {n}", f"#{n * 20:02x}4e89", (480, 360)),
            }
            for n in range(1, 13)
        ],
    )
    admin.click("text=Envoyer les photos")
    expect(admin.locator(".messages")).to_contain_text("12 photo(s) ajoutée(s)")
    assert Photo.objects.filter(status=Photo.Status.READY).count() == 12

    visitor = new_context(locale="fr-BE", **PHONE_390).new_page()
    visitor.goto(f"{base}/clubs/{slug}/")
    # Every picture of the page has its size before it loads: nothing below it moves.
    unsized = visitor.evaluate(
        "[...document.querySelectorAll('main img')]"
        ".filter(img => !img.getAttribute('width') || !img.getAttribute('height')).length"
    )
    assert unsized == 0
    fits_the_phone(visitor)
    menu = visitor.locator(".club-site-menu")
    expect(menu).to_contain_text("Le club")
    expect(menu).to_contain_text("Règlement interne")
    expect(visitor.locator(".club-news")).to_contain_text("Souper annuel du club")
    every_image_loaded(visitor, ".club-news img.news-photo", 1)
    expect(visitor.locator(".club-photos")).to_contain_text("Soirée de mars")
    expect(visitor.locator(".club-photos")).to_contain_text("12 photos")
    every_image_loaded(visitor, ".club-photos img", 1)
    expect(menu.locator("text=Palmarès")).to_be_visible()

    home = visitor.url
    for title in PAGES:
        visitor.goto(home)
        visitor.click(f".club-site-menu >> text={title}")
        expect(visitor.locator(".site-page h1")).to_have_text(title)
        fits_the_phone(visitor)
    expect(visitor.locator(".site-page-text li").first).to_have_text("On arrive à 19 h 45.")

    visitor.goto(home)
    visitor.locator(".club-news >> text=Souper annuel du club").click()
    expect(visitor.locator(".news-text strong")).to_have_text("samedi 14 février")

    visitor.goto(home)
    visitor.click(".club-photos >> text=Soirée de mars")
    every_image_loaded(visitor, ".photo-grid img", 12)
    fits_the_phone(visitor)
