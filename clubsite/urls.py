"""The club site's addresses, under a club's own (``/clubs/<slug>/``): its pages, news, contact,
photos and hall of fame, public and managed. The root URLconf includes them."""

from django.urls import include, path

from .views import contact, news, news_admin

# A club's site, beside the club app's pages under the same prefix (club/urls.py).
club_site_urls = [
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
]

urlpatterns = [
    path("clubs/<slug:slug>/", include(club_site_urls)),
]
