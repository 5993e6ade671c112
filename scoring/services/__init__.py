"""What it is worth: recording, correcting and deleting deals, the draw of the rounds,
closing, publishing and reopening a night, and the season rankings.

The only code that writes points and standings. A deal takes one trip: the view (or the API,
an importer) calls ``deal_record``, which locks the poule, asks the engine for the whole
sheet's points, and stores the deal (``sheets.poule_sheet_store``), the poule standings and the
tournament standings in one transaction. Work that follows a commit (the season ranking, the
result e-mails) is queued by its task's name: the tasks are the interface's, above this module.

One module per topic; each imports only those below it, never this package:

- ``sheets``: a poule's sheet scored by the engine and stored, with the poule's and the
  night's standings (an imported night stored whole);
- ``rankings``: season totals, the live ranking's snapshot and its publication;
- ``deals`` (above ``sheets``): recording deals and their guards (the night's lock, client
  keys, the table's deal count);
- ``corrections`` (above ``deals``, ``sheets``, ``rankings``): correcting and removing a deal;
- ``draw``: the draw of a round;
- ``nights`` (above ``rankings``): closing, publishing and reopening a night;
- ``federations`` (above ``rankings``): a federation season ranked across its clubs, and the
  rankings a night's change reaches beyond its own club;
- ``ratings``: the « cote » and the night statistics stored, from a night on, in order;
- ``merges`` (above ``rankings``, ``federations``, ``ratings``, ``merge_rights``): two records
  of one person merged (their history, never a role), and the merge undone;
  ``merge_rights``: who may propose, confirm, refuse and undo a merge (the one place);
- ``ranking_import``: a past season's published ranking imported from its table;
  ``imported_lines``: one line of it corrected;
- ``rules`` (above ``rankings``): a season's rules changed and previewed, a point table's
  change tried on the club's last night.

Every name below is importable from ``scoring.services`` as before the split.
"""

from .corrections import deal_correct, deal_delete, deal_version
from .deals import (
    TABLE_GONE,
    DealConflict,
    deal_record,
    deal_resent,
    deals_record,
    key_reused_check,
)
from .draw import round_draw
from .federations import (
    federation_nights,
    federation_ranking_pending,
    federation_ranking_queue,
    federation_ranking_update,
    federation_seasons_of,
    night_rankings_queue,
)
from .imported_lines import LineFigures, imported_line_correct
from .merge_rights import (
    merge_may_confirm,
    merge_may_propose,
    merge_may_refuse,
    merge_may_undo,
    merge_refused,
)
from .merges import (
    MergePreview,
    merge_confirm,
    merge_from_invitation,
    merge_preview,
    merge_propose,
    merge_refusal,
    merge_refuse,
    merge_undo,
)
from .night_rows import RowsLater, night_rows_store
from .nights import (
    UNDEALT,
    CloseCheck,
    UnfinishedTable,
    results_email_queue,
    tournament_close,
    tournament_close_check,
    tournament_publish,
    tournament_reopen,
    tournament_unpublish,
)
from .ranking_import import ImportedLine, ranking_import, ranking_lines_read
from .rankings import (
    ranking_pending,
    ranking_publish,
    ranking_publish_check,
    ranking_publish_queue,
    season_guests,
    season_nights,
    season_ranking_queue,
    season_ranking_update,
    season_totals,
    standings_totals,
)
from .ratings import (
    night_statistics_store,
    ratings_pending,
    ratings_queue,
    ratings_rebuild,
    ratings_update,
)
from .rules import (
    RankingChange,
    Rescored,
    RescoredLine,
    last_night_rescored,
    season_rules_preview,
    season_rules_set,
)
from .sheets import (
    ScoredSheet,
    engine_validation_error,
    poule_rescore,
    poule_score,
    poule_sheet_store,
    refused_as_validation_error,
    tournament_standings_update,
)

__all__ = [
    "TABLE_GONE",
    "UNDEALT",
    "CloseCheck",
    "DealConflict",
    "ImportedLine",
    "LineFigures",
    "MergePreview",
    "RankingChange",
    "Rescored",
    "RescoredLine",
    "RowsLater",
    "ScoredSheet",
    "UnfinishedTable",
    "deal_correct",
    "deal_delete",
    "deal_record",
    "deal_resent",
    "deal_version",
    "deals_record",
    "engine_validation_error",
    "federation_nights",
    "federation_ranking_pending",
    "federation_ranking_queue",
    "federation_ranking_update",
    "federation_seasons_of",
    "imported_line_correct",
    "key_reused_check",
    "last_night_rescored",
    "merge_confirm",
    "merge_from_invitation",
    "merge_may_confirm",
    "merge_may_propose",
    "merge_may_refuse",
    "merge_may_undo",
    "merge_preview",
    "merge_propose",
    "merge_refusal",
    "merge_refuse",
    "merge_refused",
    "merge_undo",
    "night_rankings_queue",
    "night_rows_store",
    "night_statistics_store",
    "poule_rescore",
    "poule_score",
    "poule_sheet_store",
    "ranking_import",
    "ranking_lines_read",
    "ranking_pending",
    "ranking_publish",
    "ranking_publish_check",
    "ranking_publish_queue",
    "ratings_pending",
    "ratings_queue",
    "ratings_rebuild",
    "ratings_update",
    "refused_as_validation_error",
    "results_email_queue",
    "round_draw",
    "season_guests",
    "season_nights",
    "season_ranking_queue",
    "season_ranking_update",
    "season_rules_preview",
    "season_rules_set",
    "season_totals",
    "standings_totals",
    "tournament_close",
    "tournament_close_check",
    "tournament_publish",
    "tournament_reopen",
    "tournament_standings_update",
    "tournament_unpublish",
]
