"""The site's addresses: each app's URLconf stitched together, Django's own (the language
switch, the admin), and the error pages. The apps' addresses are theirs (``front/urls.py``,
``club/urls.py``, ``games/club_urls.py``, ``api/urls.py``); an app never includes another's."""

from django.contrib import admin
from django.urls import include, path

# Imported, not named in strings: the import contracts see the site stand on its apps.
from api import urls as api_urls
from club import urls as club_urls
from clubsite import urls as clubsite_urls
from front import urls as front_urls
from games import club_urls as games_urls

urlpatterns = [
    # The site's shell: home, guide, privacy, health, the installable app, uploads.
    path("", include(front_urls)),
    # A club's and a federation's pages, the member's account, a club's sign-up.
    path("", include(club_urls)),
    # A club's point tables, room link and nights; the member's calendar.
    path("", include(games_urls)),
    # A club's own site: its pages, news, contact, photos and hall of fame.
    path("", include(clubsite_urls)),
    # The JSON API (api/): versioned, so that a club's web site keeps working when v2 comes.
    path("api/v1/", include(api_urls)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

# The error pages in the site's layout and language (front/views/errors.py).
handler403 = "front.views.errors.permission_denied"
handler404 = "front.views.errors.page_not_found"
handler500 = "front.views.errors.server_error"
