from django.urls import path

from .calendar.views import members, secretary
from .views import (
    deal_changes,
    paper_entry,
    paper_sheets,
    presence,
    publication,
    results,
    room,
    sheet,
    tournament,
)

app_name = "games"

urlpatterns = [
    # The club's calendar (games/calendar/views/: the members' pages; the secretary's).
    path("calendrier/", members.calendar_page, name="calendar"),
    path("calendrier.ics", members.calendar_feed, name="calendar-feed"),
    path("calendrier/gestion/", secretary.calendar_manage, name="calendar-manage"),
    path("calendrier/<id:pk>/repondre/", members.calendar_answer, name="calendar-answer"),
    path("calendrier/<id:pk>/reponses/", secretary.calendar_replies, name="calendar-replies"),
    path("calendrier/<id:pk>/noter/", secretary.calendar_record, name="calendar-record"),
    path("calendrier/<id:pk>/relancer/", secretary.calendar_remind, name="calendar-remind"),
    path("calendrier/<id:pk>/modifier/", secretary.calendar_change, name="calendar-change"),
    path("calendrier/<id:pk>/supprimer/", secretary.calendar_delete, name="calendar-delete"),
    path("calendrier/<id:pk>/annuler/", secretary.calendar_cancel, name="calendar-cancel"),
    path("calendrier/<id:pk>/ouvrir/", secretary.calendar_open, name="calendar-open"),
    path("calendrier/reponse/<str:token>/", members.calendar_reply, name="calendar-reply"),
    path("nouvelle/", tournament.tournament_create, name="tournament-create"),
    path("<id:pk>/", tournament.tournament_detail, name="tournament"),
    path("<id:pk>/presents/", presence.presence, name="presence"),
    path("<id:pk>/presents/ajouter/", presence.player_add, name="player-add"),
    path("<id:pk>/presents/chercher/", presence.presence_search, name="presence-search"),
    path("<id:pk>/tours/<id:round>/tirage/", tournament.round_draw, name="draw"),
    path("<id:pk>/tours/<id:round>/placement/", tournament.seating, name="seating"),
    path("<id:pk>/tours/<id:round>/feuilles/", paper_sheets.round_sheets, name="paper-sheets"),
    path("<id:pk>/feuilles-vierges/", paper_sheets.blank_sheets, name="blank-sheets"),
    path("<id:pk>/poules/<id:poule_pk>/", sheet.poule_sheet, name="sheet"),
    path("<id:pk>/poules/<id:poule_pk>/saisie/", paper_entry.sheet_entry, name="sheet-entry"),
    path("<id:pk>/poules/<id:poule_pk>/annuler/", deal_changes.deal_undo, name="sheet-undo"),
    path("<id:pk>/donnes/<id:deal_pk>/corriger/", deal_changes.deal_edit, name="deal-edit"),
    path("<id:pk>/donnes/<id:deal_pk>/supprimer/", deal_changes.deal_delete, name="deal-delete"),
    path("<id:pk>/salle/", room.room, name="room"),
    path("<id:pk>/resultats/", results.tournament_results, name="results"),
    path("<id:pk>/resultats.<slug:fmt>", results.results_export, name="results-export"),
    path("<id:pk>/donnes.<slug:fmt>", results.deals_export, name="deals-export"),
    path("<id:pk>/soiree.json", results.tournament_file, name="tournament-file"),
    path("<id:pk>/cloturer/", tournament.tournament_close, name="close"),
    path("<id:pk>/publier/", publication.tournament_publish, name="publish"),
    path("<id:pk>/depublier/", publication.tournament_unpublish, name="unpublish"),
    path("<id:pk>/rouvrir/", publication.tournament_reopen, name="reopen"),
]
