"""The club app's addresses: a club's pages, a federation's, a member's account, a club's
sign-up. The root URLconf (``config/urls.py``) includes them beside the other apps' (the home
page and the site's own files are front's: ``front/urls.py``)."""

from django.urls import include, path

from .views import (
    accounts,
    club_admin,
    club_closing,
    club_federations,
    club_settings,
    club_start,
    federation_admin,
    federations,
    imported_lines,
    member,
    member_import,
    merges,
    players,
    public,
    ranking_import,
    rankings,
    ratings,
    room_link,
    signup,
)

club_urls = [
    path("", public.club_detail, name="club-detail"),
    # A newcomer asks to join a listed club (front/urls.py); its admins answer
    # (club/views/club_start.py).
    path("gestion/demandes/", club_start.join_requests, name="join-requests"),
    path(
        "gestion/demandes/<id:pk>/<slug:action>/",
        club_start.join_request_decide,
        name="join-request-decide",
    ),
    path("premiers-pas/<slug:step>/", club_start.checklist_confirm, name="checklist-confirm"),
    path("classement/", rankings.ranking_current, name="ranking"),
    path("classements/", rankings.ranking_archive, name="ranking-archive"),
    path("classement/<slug:season>/", rankings.ranking_season, name="ranking-season"),
    path(
        "classement/<slug:season>/export.<slug:fmt>",
        rankings.ranking_export,
        name="ranking-export",
    ),
    path("classement/<slug:season>/publier/", rankings.ranking_publish, name="ranking-publish"),
    path("joueurs/<id:pk>/", players.player_detail, name="player"),
    path("joueurs/<id:pk>/statistiques/", ratings.player_stats, name="player-statistics"),
    path("cote/", ratings.club_ratings, name="ratings"),
    path("statistiques/", ratings.club_statistics, name="club-statistics"),
    path("soirees/<id:pk>/cote/", ratings.night_ratings, name="night-ratings"),
    path("membres/", accounts.members, name="members"),
    path("membres/<id:pk>/inviter/", accounts.invite, name="invite"),
    path("membres/<id:pk>/debloquer/", accounts.member_unlock, name="member-unlock"),
    path("membres/demandes/<id:pk>/approuver/", accounts.claim_approve, name="claim-approve"),
    # The club admin's area (club/views/club_admin.py; its point tables: games/club_urls.py).
    path("gestion/", club_admin.club_admin, name="club-admin"),
    # A federation's invitation, answered (club/views/club_federations.py).
    path(
        "gestion/federations/<id:pk>/<slug:answer>/",
        club_federations.federation_answer,
        name="club-federation-answer",
    ),
    path("membres/ajouter/", club_admin.member_add, name="member-add"),
    # Members from a spreadsheet (club/views/member_import.py).
    path("membres/importer/", member_import.member_import_table, name="member-import"),
    path(
        "membres/importer/colonnes/",
        member_import.member_import_columns,
        name="member-import-columns",
    ),
    path(
        "membres/importer/verifier/",
        member_import.member_import_review,
        name="member-import-review",
    ),
    path("membres/importer/fait/", member_import.member_import_done, name="member-import-done"),
    path(
        "membres/importer/lignes-a-corriger.csv",
        member_import.member_import_left_csv,
        name="member-import-left",
    ),
    # The club leaves with its data (club/views/club_closing.py).
    path("gestion/archive.zip", club_closing.archive_download, name="club-archive"),
    path("gestion/fermer/", club_closing.club_close_page, name="club-close"),
    path("membres/<id:pk>/modifier/", club_admin.member_edit, name="member-edit"),
    path("membres/<id:pk>/role/", club_admin.member_role, name="member-role"),
    path("membres/<id:pk>/fin/", club_admin.member_end, name="member-end"),
    path("membres/<id:pk>/reprise/", club_admin.member_resume, name="member-resume"),
    path("membres/<id:pk>/devient-membre/", club_admin.member_from_guest, name="member-from-guest"),
    path("membres/<id:pk>/fusionner/", merges.member_merge_search, name="member-merge"),
    path(
        "membres/<id:pk>/fusionner/<id:other>/",
        merges.member_merge_propose,
        name="member-merge-propose",
    ),
    path("gestion/fusions/", merges.club_merges, name="club-merges"),
    path(
        "gestion/fusions/<id:pk>/<slug:action>/",
        merges.club_merge_decide,
        name="club-merge-decide",
    ),
    path("saisons/", club_admin.seasons, name="seasons"),
    path("saisons/importer/", ranking_import.ranking_import_table, name="ranking-import"),
    path(
        "saisons/importer/colonnes/",
        ranking_import.ranking_import_columns,
        name="ranking-import-columns",
    ),
    path(
        "saisons/importer/noms/", ranking_import.ranking_import_names, name="ranking-import-names"
    ),
    path("saisons/<slug:season>/", club_admin.season_edit, name="season-edit"),
    # An imported ranking corrected line by line.
    path(
        "saisons/<slug:season>/classement-importe/",
        imported_lines.imported_lines,
        name="imported-lines",
    ),
    path(
        "saisons/<slug:season>/classement-importe/<id:line>/",
        imported_lines.imported_line_edit,
        name="imported-line",
    ),
    path("reglages/", club_settings.club_settings, name="club-settings"),
    path("couleurs.css", club_settings.club_colours, name="club-colours"),
    path("gestion/ecran-de-salle/", room_link.room_link, name="room-link"),
]

# A federation's public pages (club/views/federations.py).
federation_urls = [
    path("", federations.federation_detail, name="federation"),
    path("classements/", federations.federation_rankings, name="federation-archive"),
    path("classement/<slug:season>/", federations.federation_ranking, name="federation-ranking"),
]

# A federation's administrators (club/views/federation_admin.py): its clubs, admins, seasons.
federation_admin_urls = [
    path("", federation_admin.federation_admin, name="federation-admin"),
    path("clubs/inviter/", federation_admin.club_invite, name="federation-club-invite"),
    path(
        "invitations/<id:pk>/retirer/",
        federation_admin.invitation_withdraw,
        name="federation-invitation-withdraw",
    ),
    path("clubs/<id:pk>/retirer/", federation_admin.club_remove, name="federation-club-remove"),
    path("administrateurs/ajouter/", federation_admin.admin_add, name="federation-admin-add"),
    path(
        "administrateurs/<id:pk>/retirer/",
        federation_admin.admin_remove,
        name="federation-admin-remove",
    ),
    path("saisons/nouvelle/", federation_admin.season_add, name="federation-season-add"),
    path("saisons/<slug:season>/", federation_admin.season_edit, name="federation-season-edit"),
]

account_urls = [
    path("invitation/<str:token>/", accounts.invitation_accept, name="invitation-accept"),
    path("relier/<str:token>/", accounts.claim_confirm, name="claim-confirm"),
    path("adresse/<str:token>/", member.email_change, name="email-change-confirm"),
    path("profil/", member.profile, name="profile"),
    path("fusions/<id:pk>/<slug:action>/", merges.my_merge_decide, name="my-merge-decide"),
    path("resultats/", member.my_results, name="my-results"),
    path("donnees.json", member.my_data, name="my-data"),
    path("cles-api/", member.api_tokens, name="api-tokens"),
    path("cles-api/<id:pk>/retirer/", member.api_token_revoke, name="api-token-revoke"),
    path("login/", accounts.MemberLoginView.as_view(), name="login"),
    path("password_change/", accounts.MemberPasswordChangeView.as_view(), name="password_change"),
    path("password_reset/", accounts.MemberPasswordResetView.as_view(), name="password_reset"),
    path(
        "reset/<uidb64>/<token>/",
        accounts.MemberPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("", include("django.contrib.auth.urls")),
]

# A club signs up (club/views/signup.py): the secretary's address, her account, the club.
signup_urls = [
    path("", signup.signup_start, name="signup-start"),
    path("envoye/", signup.signup_sent, name="signup-sent"),
    path("confirmer/<str:token>/", signup.signup_confirm, name="signup-confirm"),
    path("club/", signup.signup_club, name="signup-club"),
    path("saison/", signup.signup_season, name="signup-season"),
    path("envoi/", signup.signup_review, name="signup-review"),
]

urlpatterns = [
    path("inscription/", include(signup_urls)),
    path("clubs/<slug:slug>/", include(club_urls)),
    path("federations/<slug:slug>/gestion/", include(federation_admin_urls)),
    path("federations/<slug:slug>/", include(federation_urls)),
    path("compte/", include(account_urls)),
]
