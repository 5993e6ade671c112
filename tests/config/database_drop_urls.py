"""The site's addresses and two of the tests' own, for the dropped-connection tests of
``tests/config/test_middleware.py``: a page that reads the database, and one whose statement
fails while the database answers."""

from django.db import connection
from django.http import HttpResponse
from django.urls import path

from club.models import Club
from config import urls as site_urls


def club_count(request):
    return HttpResponse(str(Club.objects.count()))


def broken_statement(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM pas_une_table")


urlpatterns = [
    *site_urls.urlpatterns,
    path("clubs-comptes/", club_count),
    path("requete-cassee/", broken_statement),
]
handler500 = site_urls.handler500
