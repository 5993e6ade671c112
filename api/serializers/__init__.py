"""What the API answers and accepts, each field documented (the OpenAPI schema is drawn from
these), one module per resource. The vocabulary is the site's and the club-night file's
(docs/night-format.md): a night is a ``tournament`` in the code and a *night* here, its tables
are *poules*, players are named by seat number ("1" … "5") inside a deal, as on the score
sheet."""

from .clubs import (
    ClubSerializer,
    PlayerSerializer,
    RankingLineSerializer,
    RankingSerializer,
    SeasonSerializer,
)
from .common import (
    POINTS_HELP,
    DetailSerializer,
    PlayerRef,
    ProblemSerializer,
    RefusalSerializer,
    has_nul,
)
from .deals import (
    DEAL_SCHEMA,
    DealCorrectSerializer,
    DealDataField,
    DealRecordSerializer,
    DealSerializer,
)
from .federations import (
    FederationDetailSerializer,
    FederationRankingSerializer,
    FederationSeasonSerializer,
    FederationSerializer,
)
from .me import ClubRoleSerializer, MyResultSerializer, ProfileSerializer
from .nightfile import NIGHT_FILE_EXAMPLE, NightFileSerializer
from .nights import (
    CloseSerializer,
    DrawResultSerializer,
    DrawSerializer,
    NightDetailSerializer,
    NightSerializer,
    PouleSerializer,
    PouleStandingSerializer,
    SeatSerializer,
    StandingSerializer,
)
from .ratings import PlayerStatisticsSerializer, RatingSerializer

__all__ = [
    "DEAL_SCHEMA",
    "NIGHT_FILE_EXAMPLE",
    "POINTS_HELP",
    "CloseSerializer",
    "ClubRoleSerializer",
    "ClubSerializer",
    "DealCorrectSerializer",
    "DealDataField",
    "DealRecordSerializer",
    "DealSerializer",
    "DetailSerializer",
    "DrawResultSerializer",
    "DrawSerializer",
    "FederationDetailSerializer",
    "FederationRankingSerializer",
    "FederationSeasonSerializer",
    "FederationSerializer",
    "MyResultSerializer",
    "NightDetailSerializer",
    "NightFileSerializer",
    "NightSerializer",
    "PlayerRef",
    "PlayerSerializer",
    "PlayerStatisticsSerializer",
    "PouleSerializer",
    "PouleStandingSerializer",
    "ProblemSerializer",
    "ProfileSerializer",
    "RankingLineSerializer",
    "RankingSerializer",
    "RatingSerializer",
    "RefusalSerializer",
    "SeasonSerializer",
    "SeatSerializer",
    "StandingSerializer",
    "has_nul",
]
