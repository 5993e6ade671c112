"""The shell's addresses: the home page, the guide, the privacy page, a listed club's join
request, the health check, the installable app and uploads. The root URLconf
(``config/urls.py``) includes them beside the apps'; their names are the site's (no
namespace), as they were when the club app served them."""

from django.conf import settings
from django.urls import path

from .views import directory, found, guide, health, home, media, offline, privacy, unsubscribe

urlpatterns = [
    path("", home.home, name="home"),
    path("confidentialite/", privacy.privacy, name="privacy"),
    # The guide, one page a task (front/views/guide.py; what explains which page: front/guide.py).
    path("aide/", guide.guide, name="guide"),
    path("aide/<slug:slug>/", guide.guide_page, name="guide-page"),
    # A newcomer asks to join a listed club from the home page's list (front/views/directory.py).
    path("clubs/<slug:slug>/rejoindre/", directory.join_request, name="join-request"),
    # The one way out of every bulk e-mail (front/views/unsubscribe.py; RFC 8058 one-click).
    path("desabonnement/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
    path("healthz", health.healthz, name="healthz"),
    # How the site is found (front/views/found.py): crawlers' rules, every public page.
    path("robots.txt", found.robots_txt, name="robots"),
    path("sitemap.xml", found.sitemap, name="sitemap"),
    # The installable web app: its worker looks after every page, so it is served from here.
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("favicon.ico", offline.favicon, name="favicon"),
    path("hors-ligne/", offline.offline, name="offline"),
    # Uploads, in production too (whitenoise serves only the collected static files).
    path(settings.MEDIA_URL.strip("/") + "/<path:path>", media.media_file, name="media"),
]
