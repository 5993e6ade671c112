"""The games' addresses among a club's and a member's, which the root URLconf
(``config/urls.py``) includes beside the club's (``club/urls.py``): a club's point tables, its
room screen's private link and its nights (``games/urls.py``, namespace ``games``), and the
member's calendar under his account. Their names and paths are the site's since before the
split."""

from django.urls import include, path

from .calendar.views import members as calendar
from .views import point_tables, room

club_urls = [
    # The room screen's private link (games/views/room.py): no login on the projector's PC.
    path("salle/<str:key>/", room.room_by_key, name="room-by-key"),
    # The club admin's point tables (games/views/point_tables.py).
    path("tableaux/", point_tables.point_table_list, name="point-tables"),
    path("tableaux/<slug:name>/", point_tables.point_table_edit, name="point-table"),
    path(
        "tableaux/<slug:name>/comparer/",
        point_tables.point_table_compare,
        name="point-table-compare",
    ),
    path("soirees/", include("games.urls")),
]

account_urls = [
    # The member's calendar (games/calendar/views/members.py): reminders, his private feed.
    path("calendrier/", calendar.my_calendar, name="my-calendar"),
    path("calendrier/renouveler/", calendar.my_feed_renew, name="my-calendar-renew"),
    path("calendrier/<str:key>.ics", calendar.member_feed, name="member-feed"),
    path("calendrier/rappels/<str:token>/", calendar.reminders_off, name="calendar-reminders-off"),
]

urlpatterns = [
    path("clubs/<slug:slug>/", include(club_urls)),
    path("compte/", include(account_urls)),
]
