"""The point table the phone's sheet counts its waiting deals with
(games/presenters/sheet_points.py): shipped with the page for Belgian whist, row by row as the
engine reads the night's table, left out of the answers swapped in after each deal, and not
shipped for a game whose waiting deals get their points from the server only."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import asdict

import pytest

from games import services as games_services
from games.presenters.sheet_points import provisional_points
from games.services import point_table_for_preset
from tests.games.views.test_sheet import EMBALLAGE, post_deal, table_of, url

pytestmark = pytest.mark.django_db

SHIPPED = re.compile(r'<script id="sheet-points" type="application/json">(.*?)</script>', re.S)


def test_the_sheet_ships_the_nights_point_table_as_the_engine_reads_it(
    client, running_night, scorer
):
    poule = table_of(running_night, 5)
    client.force_login(scorer)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    shipped = json.loads(SHIPPED.search(page).group(1))
    table = running_night.point_table.engine_table()
    assert shipped["game"] == "belgian_whist"
    # Every row, every value the engine scores by (what a row needs is the table editor's).
    engine_rows = [
        {name: value for name, value in asdict(row).items() if name != "needed"}
        for row in table.rows.values()
    ]
    assert shipped["rows"] == json.loads(json.dumps(engine_rows))
    # The totals carry the recorded numbers the phone adds its waiting deals to.
    assert page.count('data-total="0"') == 5
    # The answer to a deal is swapped into that page: it does not ship the table again.
    answer = post_deal(client, poule, EMBALLAGE, client_key=str(uuid.uuid4()), seen="0")
    assert answer["X-Sheet-Result"] == "recorded"
    assert 'id="sheet-points"' not in answer.content.decode()


def test_a_game_scored_by_whole_parties_ships_no_point_table(club, season):
    hearts = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game="hearts",
        point_table=point_table_for_preset("coeurs"),
    )
    assert provisional_points(hearts) is None
