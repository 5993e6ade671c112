"""One signed link per reader and kind of bulk e-mail: it reads back as it was made, and a
link tampered with is refused."""

import pytest

from club.unsubscribe import (
    LinkRefused,
    MailKind,
    list_headers,
    unsubscribe_read,
    unsubscribe_token,
    unsubscribe_url,
)
from infra.site_address import served_from
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_link_reads_back_its_kind_its_reader_and_its_club(club):
    player = PlayerFactory(club=club)
    token = unsubscribe_token(MailKind.NEWS, player, club.pk)
    assert unsubscribe_read(token) == (MailKind.NEWS, player, club.pk)
    assert unsubscribe_read(unsubscribe_token(MailKind.RESULTS, player)) == (
        MailKind.RESULTS,
        player,
        None,
    )


def test_a_tampered_or_foreign_link_is_refused(club):
    player = PlayerFactory(club=club)
    token = unsubscribe_token(MailKind.REMINDERS, player)
    for bad in (token[:-3] + "abc", "pas-un-lien", ""):
        with pytest.raises(LinkRefused):
            unsubscribe_read(bad)
    player.delete()
    with pytest.raises(LinkRefused):
        unsubscribe_read(token)


def test_the_headers_offer_rfc_8058_one_click(club):
    with served_from("https://club.example"):
        url = unsubscribe_url(MailKind.RESULTS, PlayerFactory(club=club))
    assert url.startswith("https://club.example/desabonnement/")
    assert list_headers(url) == {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
