from django.urls import path

from .views import results, room, sheet, tournament

app_name = "games"

urlpatterns = [
    path("nouvelle/", tournament.tournament_create, name="tournament-create"),
    path("<int:pk>/", tournament.tournament_detail, name="tournament"),
    path("<int:pk>/presents/", tournament.presence, name="presence"),
    path("<int:pk>/presents/ajouter/", tournament.player_add, name="player-add"),
    path("<int:pk>/tours/<int:round>/tirage/", tournament.round_draw, name="draw"),
    path("<int:pk>/tours/<int:round>/placement/", tournament.seating, name="seating"),
    path("<int:pk>/poules/<int:poule_pk>/", sheet.poule_sheet, name="sheet"),
    path("<int:pk>/donnes/<int:deal_pk>/corriger/", sheet.deal_edit, name="deal-edit"),
    path("<int:pk>/donnes/<int:deal_pk>/supprimer/", sheet.deal_delete, name="deal-delete"),
    path("<int:pk>/salle/", room.room, name="room"),
    path("<int:pk>/resultats/", results.tournament_results, name="results"),
    path("<int:pk>/resultats.<str:fmt>", results.results_export, name="results-export"),
    path("<int:pk>/soiree.json", results.tournament_file, name="tournament-file"),
    path("<int:pk>/cloturer/", tournament.tournament_close, name="close"),
    path("<int:pk>/publier/", tournament.tournament_publish, name="publish"),
    path("<int:pk>/rouvrir/", tournament.tournament_reopen, name="reopen"),
]
