"""``/api/v1/``: every address of the JSON API, its schema and its docs."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import views

app_name = "api"

club = "clubs/<slug:slug>/"
night = club + "nights/<id:pk>/"
federation = "federations/<slug:federation>/"
federation_season = federation + "seasons/<slug:season>/"

urlpatterns = [
    path("clubs/", views.ClubList.as_view(), name="clubs"),
    path(club, views.ClubDetail.as_view(), name="club"),
    path(club + "seasons/", views.SeasonList.as_view(), name="seasons"),
    path(club + "seasons/<slug:season>/ranking/", views.SeasonRanking.as_view(), name="ranking"),
    path(club + "players/", views.PlayerList.as_view(), name="players"),
    path(club + "players/<id:pk>/", views.PlayerDetail.as_view(), name="player"),
    path(club + "ratings/", views.ClubRatings.as_view(), name="ratings"),
    path(
        club + "players/<id:pk>/statistics/",
        views.PlayerStatistics.as_view(),
        name="player-statistics",
    ),
    path(club + "nights/", views.NightList.as_view(), name="nights"),
    path(club + "nights/import/", views.NightImport.as_view(), name="night-import"),
    path(night, views.NightDetail.as_view(), name="night"),
    path(night + "export/", views.NightExport.as_view(), name="night-export"),
    path(night + "close/", views.NightClose.as_view(), name="night-close"),
    path(night + "rounds/<id:round>/draw/", views.RoundDraw.as_view(), name="round-draw"),
    path(night + "poules/<id:poule_pk>/deals/", views.DealRecord.as_view(), name="deal-record"),
    path(night + "deals/<id:deal_pk>/", views.DealEdit.as_view(), name="deal"),
    path(club + "calendar/", views.CalendarList.as_view(), name="calendar"),
    path(club + "calendar/<id:pk>/reply/", views.MyReply.as_view(), name="calendar-reply"),
    path(club + "calendar/<id:pk>/replies/", views.NightReplies.as_view(), name="calendar-replies"),
    path("calendar/replies/<str:token>/", views.LinkReply.as_view(), name="calendar-link-reply"),
    path("federations/", views.FederationList.as_view(), name="federations"),
    path(federation, views.FederationDetail.as_view(), name="federation"),
    path(
        federation_season + "ranking/",
        views.FederationSeasonRanking.as_view(),
        name="federation-ranking",
    ),
    path(
        federation_season + "nights/",
        views.FederationSeasonNights.as_view(),
        name="federation-nights",
    ),
    path("me/", views.Me.as_view(), name="me"),
    path("me/results/", views.MyResults.as_view(), name="my-results"),
    path("me/data/", views.MyData.as_view(), name="my-data"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI from the vendored sidecar files; its script is a file, not inline (CSP).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
]
