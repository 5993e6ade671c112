"""A club's album on a 390 px phone, in a real browser: the club's admin creates an album from
the club's management page and sends several photos at once from his phone's picker; a
visitor finds the album, its thumbnails and a photo, with nothing running off the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from clubsite.models import Photo
from clubsite.photos.demo import phone_jpeg
from tests.e2e.conftest import page_width

from .test_accessibility import signed_in, violations
from .test_club_night import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_390 = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
COLOURS = ["#1d4e89", "#7b2d26", "#2f6b3a", "#8a6d1d"]


def fits_the_phone(page: Page) -> None:
    width = page_width(page)
    assert width <= PHONE_390["viewport"]["width"], f"{page.url} is {width}px wide"


def every_image_loaded(page: Page, selector: str, count: int) -> None:
    images = page.locator(selector)
    expect(images).to_have_count(count)
    for n in range(count):
        image = images.nth(n)
        image.scroll_into_view_if_needed()
        expect(image).to_have_js_property("complete", True)
        assert image.evaluate("img => img.naturalWidth") > 0


def test_an_admin_sends_an_album_from_his_phone_and_a_visitor_sees_it(
    live_server, new_context, club, club_admin
):
    base = live_server.url
    admin = new_context(locale="fr-BE", **PHONE_390).new_page()
    log_in(admin, base, club_admin.username)
    admin.goto(f"{base}/clubs/{club.slug}/gestion/")
    admin.click(".admin-index >> text=Photos du club")
    admin.click("text=Nouvel album")
    admin.fill("#id_title", "Soirée de mars")
    admin.fill("#id_date", "2025-03-13")
    admin.click("text=Créer l'album")
    expect(admin.locator(".messages")).to_contain_text("Album « Soirée de mars » créé")
    fits_the_phone(admin)
    admin.set_input_files(
        "input[type=file][name=photos]",
        [
            {
                "name": f"IMG_{n:04}.jpg",
                "mimeType": "image/jpeg",
                "buffer": phone_jpeg(f"Photo {n}", colour, (480, 360)),
            }
            for n, colour in enumerate(COLOURS, start=1)
        ],
    )
    admin.click("text=Envoyer les photos")
    expect(admin.locator(".messages")).to_contain_text("4 photo(s) ajoutée(s)")
    every_image_loaded(admin, ".photo-admin-list img", 4)
    assert Photo.objects.filter(status=Photo.Status.READY).count() == 4

    visitor = new_context(locale="fr-BE", **PHONE_390).new_page()
    visitor.goto(f"{base}/clubs/{club.slug}/photos/")
    expect(visitor.locator(".album-grid")).to_contain_text("4 photos")
    visitor.click("text=Soirée de mars")
    every_image_loaded(visitor, ".photo-grid img", 4)
    fits_the_phone(visitor)
    visitor.locator(".photo-grid a").first.click()
    every_image_loaded(visitor, ".photo-view img", 1)
    fits_the_phone(visitor)
    expect(visitor.locator("text=Demander le retrait")).to_have_count(0)

    # Readable by all: axe finds no serious violation on the visitor's and the admin's pages.
    album = Photo.objects.first().album
    checked = {
        None: [
            f"{base}/clubs/{club.slug}/photos/",
            f"{base}/clubs/{club.slug}/photos/{album.slug}/",
            f"{base}/clubs/{club.slug}/photos/{album.slug}/{Photo.objects.first().pk}/",
        ],
        club_admin: [
            f"{base}/clubs/{club.slug}/gestion/site/photos/",
            f"{base}/clubs/{club.slug}/gestion/site/photos/{album.slug}/",
        ],
    }
    for user, urls in checked.items():
        page = signed_in(new_context, base, user, PHONE_390["viewport"])
        for url in urls:
            assert violations(page, url) == [], url
