"""The club site's addresses, under a club's own (``/clubs/<slug>/``): its pages, news, contact,
photos and hall of fame, public and managed. The root URLconf includes them."""

from django.urls import include, path

from .views import palmares

# A club's site, beside the club app's pages under the same prefix (club/urls.py).
club_site_urls = [
    # The club's hall of fame (clubsite/views/palmares.py).
    path("palmares/", palmares.palmares, name="palmares"),
]

urlpatterns = [
    path("clubs/<slug:slug>/", include(club_site_urls)),
]
