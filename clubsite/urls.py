"""The club site's addresses, under a club's own (``/clubs/<slug>/``): its pages, news, contact,
photos and hall of fame, public and managed. The root URLconf includes them."""

from django.urls import include, path

from .views import photo_admin, photos

# A club's albums, and their management among the club's (``gestion/site/…``).
photo_urls = [
    path("photos/", photos.albums, name="photo-albums"),
    path("photos/<slug:album>/", photos.album, name="photo-album"),
    path("photos/<slug:album>/<id:pk>/", photos.photo, name="photo"),
    path("photos/<slug:album>/<id:pk>/retrait/", photos.photo_takedown, name="photo-takedown"),
    path("photos/<slug:album>/<id:pk>/<slug:kind>/", photos.photo_file, name="photo-file"),
    path("gestion/site/photos/", photo_admin.photo_admin, name="photo-admin"),
    path("gestion/site/photos/nouvel-album/", photo_admin.album_add, name="photo-album-add"),
    path(
        "gestion/site/photos/photo/<id:pk>/supprimer/",
        photo_admin.photo_delete,
        name="photo-delete",
    ),
    path(
        "gestion/site/photos/photo/<id:pk>/retrait/<slug:decision>/",
        photo_admin.takedown_decide,
        name="photo-takedown-decide",
    ),
    path("gestion/site/photos/<slug:album>/", photo_admin.album_edit, name="photo-album-edit"),
    path(
        "gestion/site/photos/<slug:album>/envoyer/",
        photo_admin.photo_upload,
        name="photo-upload",
    ),
    path(
        "gestion/site/photos/<slug:album>/supprimer/",
        photo_admin.album_delete,
        name="photo-album-delete",
    ),
]

# A club's site, beside the club app's pages under the same prefix (club/urls.py).
club_site_urls = [*photo_urls]

urlpatterns = [
    path("clubs/<slug:slug>/", include(club_site_urls)),
]
