"""One function per change of who is who: clubs, seasons, players and their memberships.
Pages, importers and the other apps' services all call these; each validates with
``full_clean`` before it writes. One module per topic; every name is importable from
``club.services`` as well."""

from .clubs import (
    CLUB_IDENTITY_FIELDS,
    CLUB_SETTING_FIELDS,
    club_named,
    club_open,
    club_settings_set,
    room_key_renew,
)
from .federations import (
    FEDERATION_SEASON_RULE_FIELDS,
    federation_admin_add,
    federation_admin_remove,
    federation_club_add,
    federation_club_remove,
    federation_open,
    federation_season_create,
    federation_season_for,
    federation_season_rules_set,
)
from .members import (
    MEMBER_FILTERS,
    SEASON_RANKING_UPDATE,
    guest_to_member,
    member_add,
    member_edit,
    member_edit_refusal,
    members_search,
    membership_end,
    membership_resume,
    player_join,
    players_join_as_written,
    role_set,
)
from .pages import federation_pages_changed, player_pages_changed, published_pages_changed
from .seasons import (
    SEASON_RULE_FIELDS,
    season_create,
    season_dates_set,
    season_for_date,
    season_named,
    season_next,
)

__all__ = [
    "CLUB_IDENTITY_FIELDS",
    "CLUB_SETTING_FIELDS",
    "FEDERATION_SEASON_RULE_FIELDS",
    "MEMBER_FILTERS",
    "SEASON_RANKING_UPDATE",
    "SEASON_RULE_FIELDS",
    "club_named",
    "club_open",
    "club_settings_set",
    "federation_admin_add",
    "federation_admin_remove",
    "federation_club_add",
    "federation_club_remove",
    "federation_open",
    "federation_pages_changed",
    "federation_season_create",
    "federation_season_for",
    "federation_season_rules_set",
    "guest_to_member",
    "member_add",
    "member_edit",
    "member_edit_refusal",
    "members_search",
    "membership_end",
    "membership_resume",
    "player_join",
    "player_pages_changed",
    "players_join_as_written",
    "published_pages_changed",
    "role_set",
    "room_key_renew",
    "season_create",
    "season_dates_set",
    "season_for_date",
    "season_named",
    "season_next",
]
