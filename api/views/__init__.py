"""The API's endpoints, one module per resource: thin views over the site's services, asking
the same permission functions as the pages (club/permissions.py, games/visibility.py). A member
of the club is told he may not (403); anybody else learns nothing of the club's private data
(404)."""

from .calendar import CalendarList, LinkReply, MyReply, NightReplies
from .clubs import ClubDetail, ClubList, SeasonList, SeasonRanking
from .deals import DealEdit, DealRecord
from .federations import (
    FederationDetail,
    FederationList,
    FederationSeasonNights,
    FederationSeasonRanking,
)
from .me import Me, MyData, MyResults
from .night_actions import NightClose, NightImport, RoundDraw
from .nights import NightDetail, NightExport, NightList
from .players import PlayerDetail, PlayerList
from .ratings import ClubRatings, PlayerStatistics

__all__ = [
    "CalendarList",
    "ClubDetail",
    "ClubList",
    "ClubRatings",
    "DealEdit",
    "DealRecord",
    "FederationDetail",
    "FederationList",
    "FederationSeasonNights",
    "FederationSeasonRanking",
    "LinkReply",
    "Me",
    "MyData",
    "MyReply",
    "MyResults",
    "NightClose",
    "NightDetail",
    "NightExport",
    "NightImport",
    "NightList",
    "NightReplies",
    "PlayerDetail",
    "PlayerList",
    "PlayerStatistics",
    "RoundDraw",
    "SeasonList",
    "SeasonRanking",
]
