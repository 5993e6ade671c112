"""The club site's addresses, under a club's own (``/clubs/<slug>/``): its pages, news, contact,
photos and hall of fame, public and managed. The root URLconf includes them."""

from django.urls import include, path

from .views import contact, news, news_admin, page_admin, pages, palmares, photo_admin, photos

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
club_site_urls = [
    # The club's pages managed by its admins (clubsite/views/page_admin.py).
    path("gestion/site/pages/", page_admin.page_list, name="site-pages"),
    path("gestion/site/pages/nouvelle/", page_admin.page_add, name="site-page-add"),
    path("gestion/site/pages/<id:pk>/", page_admin.page_edit, name="site-page-edit"),
    path("gestion/site/pages/<id:pk>/supprimer/", page_admin.page_delete, name="site-page-delete"),
    path(
        "gestion/site/pages/<id:pk>/historique/", page_admin.page_history, name="site-page-history"
    ),
    path(
        "gestion/site/pages/<id:pk>/historique/<int:number>/remettre/",
        page_admin.page_restore,
        name="site-page-restore",
    ),
    # The club's news (clubsite/views/news.py), its feed, and a member's e-mail choice.
    path("actualites/", news.news_list, name="news"),
    path("actualites/<id:pk>/", news.news_post, name="news-post"),
    path("actualites/flux.atom", news.news_feed, name="news-feed"),
    path("actualites/abonnement/", news.news_subscribe, name="news-subscribe"),
    # Its admins' (clubsite/views/news_admin.py).
    path("gestion/site/actualites/", news_admin.news_manage, name="news-manage"),
    path("gestion/site/actualites/nouvelle/", news_admin.news_new, name="news-new"),
    path("gestion/site/actualites/<id:pk>/", news_admin.news_edit, name="news-edit"),
    path(
        "gestion/site/actualites/<id:pk>/publier/",
        news_admin.news_publish_view,
        name="news-publish",
    ),
    path(
        "gestion/site/actualites/<id:pk>/retirer/",
        news_admin.news_unpublish_view,
        name="news-unpublish",
    ),
    path(
        "gestion/site/actualites/<id:pk>/supprimer/",
        news_admin.news_delete_view,
        name="news-delete",
    ),
    # A visitor writes to the club (clubsite/views/contact.py).
    path("contact/", contact.contact, name="contact"),
    # The club's albums and their management (clubsite/views/photos.py, photo_admin.py).
    *photo_urls,
    # The club's hall of fame (clubsite/views/palmares.py).
    path("palmares/", palmares.palmares, name="palmares"),
    # The point table of the season, public (clubsite/views/pages.py).
    path("table-des-points/", pages.point_table, name="point-table-page"),
    # Last of all the club's addresses: a page's own slug (no real address is ever a slug,
    # clubsite/reserved.py refuses them).
    path("<slug:page>/", pages.page_detail, name="site-page"),
]

urlpatterns = [
    path("clubs/<slug:slug>/", include(club_site_urls)),
]
