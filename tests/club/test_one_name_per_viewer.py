"""One name per player for one viewer: whatever page, export or API answer he reads, a viewer
reads a player under one name — the one ``club.names.name_shown`` gives (his full name to the
members of his clubs, his initials, if he chose them, to everybody else) — and it stays one
when the player changes his choice: a page drawn and kept before (a published night's results,
the API's answer, in the host club's cache for a visitor of an inter-club night) follows too.
"""

from __future__ import annotations

import pytest
from django.test import Client

from club.models import Player
from tests.club.test_names_everywhere import (  # noqa: F401 (fixtures)
    FULL,
    INITIALS,
    PAGES,
    Scene,
    _text,
    _viewer,
    league,
    scene,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Where a night's players are named, and the club's ranking; "sheet entry" only opens to the
# club's scorers and admins ("same" below).
NAMED_ON = [
    "night page",
    "score sheet",
    "sheet entry",
    "room screen by login",
    "results",
    "results csv",
    "results xlsx",
    "deals csv",
    "night file",
    "ranking",
    "ranking csv",
    "api night",
    "api night file",
    "api ranking",
]
# The public and a member of another club read his initials; his club's admin his name.
EXPECTED = {"public": INITIALS, "other": INITIALS, "same": FULL}


def names_read(client: Client, night: Scene, who: str, full: str, initials: str) -> dict:
    """Each page the viewer may open, with the names it gives the player (of the two)."""
    read = {}
    for page in NAMED_ON:
        response = client.get(PAGES[page](night, who))
        if response.status_code != 200:
            continue
        text = _text(response)
        read[page] = {name for name in (full, initials) if name in text}
    return read


@pytest.mark.parametrize("who", ["public", "other", "same"])
def test_a_viewer_reads_one_player_under_one_name_on_every_page(client, scene, who):  # noqa: F811
    _viewer(client, scene, who)

    read = names_read(client, scene, who, FULL, INITIALS)

    # The night's pages, the results and the ranking at least, whoever reads.
    assert {"results", "ranking", "api night", "api ranking"} <= set(read)
    assert {page: names for page, names in read.items() if names != {EXPECTED[who]}} == {}


def _choose(player: Player, public_name: str) -> None:
    """The player changes his choice himself, from his profile (the API's, as the page's)."""
    if player.user is None:
        player.user = UserFactory(username="visiteuse")
        player.save(update_fields=["user"])
    own = Client()
    own.force_login(player.user)
    answer = own.patch("/api/v1/me/", {"public_name": public_name}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    player.refresh_from_db()
    assert player.public_name == public_name


# A visitor of the night is named on the host club's night pages (not its ranking).
VISITOR_ON = ["night page", "score sheet", "results", "results csv", "deals csv", "api night"]


@pytest.mark.parametrize(
    ("before", "after"), [("initials", "full"), ("full", "initials")], ids=["shown", "hidden"]
)
def test_a_visitor_changing_his_choice_is_named_anew_on_the_host_clubs_kept_pages(
    scene,  # noqa: F811
    before,
    after,
):
    """Every viewer reads the pages first (the host club keeps the published ones), then the
    visitor changes his choice: each viewer reads his new name on every page, none the old."""
    visitor = scene.neighbour_member
    Player.objects.filter(pk=visitor.pk).update(public_name=before)
    visitor.refresh_from_db()
    full, initials = visitor.display_name, visitor.initials
    viewers = {}
    for who in ("public", "other", "same"):
        viewers[who] = Client()
        _viewer(viewers[who], scene, who)
        for page in VISITOR_ON:
            viewers[who].get(PAGES[page](scene, who))

    _choose(visitor, after)

    # His own club knows him: the neighbour's admin, and the host's admin who scores at the
    # neighbour's too (``_viewer``); the public does not.
    expected = {"public": initials if after == "initials" else full, "same": full, "other": full}
    for who, client in viewers.items():
        for page in VISITOR_ON:
            response = client.get(PAGES[page](scene, who))
            if response.status_code != 200:
                continue
            text = _text(response)
            named = {name for name in (full, initials) if name in text}
            assert named == {expected[who]}, (who, page)
