"""His cote as his seasons' summaries at a club keep it (``member_cote.cote_kept``): the
latest of them, whichever season it is in; none kept when a summary does not keep it."""

from __future__ import annotations

import datetime

from scoring.statistics.member_cote import CoteNow, cote_kept


def summary(cote):
    return {"nights": 3, "cote": cote}


def test_the_latest_cote_of_his_seasons_at_the_club_is_his_cote():
    earlier = [24.5, 0.25, 7, "2024-06-27"]
    later = [25.0, -0.5, 12, "2025-01-09"]

    for summaries in ([summary(later), summary(earlier)], [summary(earlier), summary(later)]):
        assert cote_kept(summaries) == (CoteNow(25.0, -0.5, 12, datetime.date(2025, 1, 9)),)


def test_two_nights_of_one_day_go_by_their_order():
    first, second = [24.5, 0.25, 7, "2024-06-27"], [24.0, -0.5, 8, "2024-06-27"]

    assert cote_kept([summary(second), summary(first)])[0].tournament_id == 8


def test_no_night_rated_is_no_cote():
    assert cote_kept([summary(None), summary(None)]) == (None,)


def test_a_summary_that_does_not_keep_it_keeps_none():
    without = {"nights": 3}

    assert cote_kept([summary([24.5, 0.25, 7, "2024-06-27"]), without]) is None
    assert cote_kept([None]) is None
