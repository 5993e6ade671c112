from django.urls import path

from .views import night, results, room, sheet

app_name = "games"

urlpatterns = [
    path("nouvelle/", night.night_create, name="night-create"),
    path("<int:pk>/", night.night_detail, name="night"),
    path("<int:pk>/presents/", night.presence, name="presence"),
    path("<int:pk>/presents/ajouter/", night.player_add, name="player-add"),
    path("<int:pk>/tours/<int:round>/tirage/", night.round_draw, name="draw"),
    path("<int:pk>/tours/<int:round>/placement/", night.seating, name="seating"),
    path("<int:pk>/poules/<int:poule_pk>/", sheet.poule_sheet, name="sheet"),
    path("<int:pk>/donnes/<int:deal_pk>/corriger/", sheet.deal_edit, name="deal-edit"),
    path("<int:pk>/donnes/<int:deal_pk>/supprimer/", sheet.deal_delete, name="deal-delete"),
    path("<int:pk>/salle/", room.room, name="room"),
    path("<int:pk>/resultats/", results.night_results, name="results"),
    path("<int:pk>/resultats.<str:fmt>", results.results_export, name="results-export"),
    path("<int:pk>/soiree.json", results.night_file, name="night-file"),
    path("<int:pk>/cloturer/", night.night_close, name="close"),
    path("<int:pk>/publier/", night.night_publish, name="publish"),
    path("<int:pk>/rouvrir/", night.night_reopen, name="reopen"),
]
