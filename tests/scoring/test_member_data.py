"""A member's download is whole: every row of the site that holds his data is in it (his
calendar replies and reminder choice, whether his private feed exists, his « cote » history,
his merges, his rankings …), or is left out on purpose, with why. A new model that names a
player or a login fails here until it is decided."""

from __future__ import annotations

import datetime
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import (
    ApiToken,
    EmailChange,
    FederationSeason,
    Invitation,
    Player,
    PlayerClaim,
    PlayerMerge,
)
from games import calendar
from games.models import MemberCalendar, ReminderEmail, ResultEmail
from scoring import services as scoring_services
from scoring.member_data import SOURCES
from scoring.models import PlayerRating
from tests.club.views.test_member import night_with
from tests.factories import PlayerFactory

# Rows that name a player or a login and are not in his download, each with why.
LEFT_OUT = {
    "admin.LogEntry.user": "the staff's log of their own changes in Django's admin",
    "club.Invitation.invited_by": "the invitations he sent as a club admin: the invited "
    "people's data, kept by the club",
    "club.FederationInvitation.invited_by": "a federation's invitation to a club, sent for "
    "the federation: the club's and the federation's record",
    "club.FederationInvitation.answered_by": "the answer he gave for his club: the club's",
    "club.PlayerMerge.proposed_by": "who proposed a merge: the merge of his records is in "
    "'merges'; one of others' records is the club's",
    "club.PlayerMerge.decided_by": "who decided a merge: as proposed_by",
    "club.PlayerMerge.undone_by": "who undid a merge: as proposed_by",
    "games.RoundDraw.drawn_by": "the scorer who drew a round: the club's record of its night",
    "games.Deal.recorded_by": "the scorer who recorded a deal: the deals of his own tables "
    "are in 'nights', others' are not his",
    "games.DealChange.by": "the scorer who corrected a deal: the club's record of its night",
    "club.ClubClosing.closed_by": "the admin who closed his club: the club's record of its "
    "closing, kept with the club until its purge",
    "club.ClubSignup.decided_by": "the operator who approved or refused a sign-up: the "
    "sign-up's record",
    "club.ClubSignup.user": "the account a secretary's sign-up opened: the sign-up holds the "
    "club's answers (its name, town, game, first season), the club's data; her name and "
    "address are in 'player'",
    "club.JoinRequest.decided_by": "the admin who answered a request to join: the club's record",
    "club.JoinRequest.player": "the member a request made: the request (name, address, "
    "message) is the newcomer's word to the club, deleted 30 days after the answer",
    "club.MemberImport.by": "the admin who imported the club's members: the club's record",
    "clubsite.NewsPost.author": "the admin who wrote a club's news post: the club's record of "
    "its own news",
    "clubsite.NewsReader.player": "his wish to get a club's news by e-mail: shown and changed on "
    "the club's news page and his profile",
    "clubsite.NewsEmail.player": "that a news post was e-mailed to him, kept so that it goes "
    "once: the e-mail itself is in his mailbox",
    "clubsite.PageVersion.saved_by": "the admin who saved a version of a club's page: the "
    "club's record of its own text",
    "clubsite.Photo.uploaded_by": "the admin who sent a photo to the club's album: the club's "
    "record",
    "clubsite.Photo.takedown_asked_by": "his request that a photo be taken down: kept only "
    "until the club's admins answer it (then cleared, or the photo deleted)",
    "scoring.PlayerNightStats.player": "figures worked out from his deals (in 'nights') and "
    "worked out again when a night changes; they name his partners and opponents",
    "scoring.PlayerSeasonStats.player": "his nights' figures added up a season at a time, "
    "worked out again with them",
}


def fields_naming_a_member() -> set[str]:
    """Every field of every model that points at a player or a login: "app.Model.field"."""
    targets = (Player, get_user_model())
    return {
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.concrete and field.is_relation and field.related_model in targets
    }


def test_every_row_holding_a_members_data_is_in_his_download_or_left_out_with_why():
    found = fields_naming_a_member()
    undecided = found - set(SOURCES) - set(LEFT_OUT)
    assert not undecided, f"in neither the download nor LEFT_OUT: {sorted(undecided)}"
    assert not set(SOURCES) & set(LEFT_OUT)
    # No entry for a field that is gone.
    assert set(SOURCES) | set(LEFT_OUT) <= found
    assert all(why for why in LEFT_OUT.values())


@pytest.fixture
def everything(club, season, member):
    """The member has a row in every model of ``SOURCES``."""
    me = member.player
    others = PlayerFactory.create_batch(3, club=club)
    deal = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
    night = night_with(season, 9, [me, *others], [deal])
    night.present.add(me)
    scoring_services.ranking_publish(season)
    scoring_services.ratings_rebuild(club)
    federation = club_services.federation_open("Ligue du Brabant", clubs=[club])
    club_services.federation_season_create(
        federation, "2024", season.start, season.end, counts=FederationSeason.Counts.ALL
    )
    scoring_services.federation_ranking_update(federation.seasons.get())
    club_services.federation_admin_add(federation, me)
    ResultEmail.objects.create(tournament=night, player=me, email="me@example.org")
    MemberCalendar.objects.create(player=me, reminders=False, feed_key="the-feed-secret-0123")
    planned = calendar.night_plan(
        club, timezone.localdate() + datetime.timedelta(days=7), calendar.NightPlan()
    )
    calendar.reply_set(planned, me, "maybe")
    ReminderEmail.objects.create(night=planned, player=me, email="me@example.org")
    old = PlayerFactory(club=club, display_name="Mon ancienne fiche")
    PlayerMerge.objects.create(kept=me, merged=old, club=club)
    PlayerClaim.objects.create(user=member, player=me, club=club, email="me@example.org")
    EmailChange.objects.create(player=me, email="new@example.org", token_hash="h" * 64)
    ApiToken.objects.create(user=member, name="Tableur", prefix="cw_ab12", key_hash="k" * 64)
    Invitation.objects.create(club=club, player=me, email="me@example.org", token_hash="i" * 64)
    assert PlayerRating.objects.filter(player=me).exists()
    return me


def test_the_download_holds_a_row_of_every_kind_he_has(client, member, everything):
    client.force_login(member)
    text = client.get(reverse("my-data")).content.decode()
    data = json.loads(text)

    empty = sorted(key for key in set(SOURCES.values()) if not data.get(key))
    assert not empty, f"sections left empty: {empty}"
    assert data["calendar"] == {"reminders": False, "private_feed": True}
    assert [reply["answer"] for reply in data["calendar_replies"]] == ["maybe"]
    assert {sent["kind"] for sent in data["emails_sent"]} == {"results", "reminder"}
    assert data["cote"][0]["game"] == "belgian_whist" and data["cote"][0]["deals"] == 1
    assert data["merges"][0]["this_record"] == "kept"
    assert data["rankings"][0]["rank"] is not None
    # Never a secret: neither the feed's address nor a key's hash.
    assert "the-feed-secret-0123" not in text
    assert "k" * 64 not in text and "h" * 64 not in text
    # The other record of a merge is not named: it may have been somebody else's.
    assert "Mon ancienne fiche" not in text


def test_a_member_without_a_calendar_row_reads_the_default_reminders_and_no_feed(client, member):
    client.force_login(member)
    data = client.get(reverse("my-data")).json()
    assert data["calendar"] == {"reminders": True, "private_feed": False}
    assert data["calendar_replies"] == [] and data["merges"] == []
