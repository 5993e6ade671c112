"""The one way out of every bulk e-mail (``club.unsubscribe``): the link of an e-mail's
footer and of its ``List-Unsubscribe`` header. A person who follows it is asked to confirm
(a mail reader's preview must not unsubscribe anybody by fetching the page); a mail reader's
own button POSTs to it (RFC 8058 one-click): no login, and no CSRF token, since the signed
link is the whole authority and it only ever turns one kind of e-mail off."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.csrf import csrf_exempt

from club.models import Club, Player
from club.unsubscribe import LinkRefused, MailKind, unsubscribe_read
from clubsite.news import news_reader_set
from games import calendar


def _turn_off(kind: MailKind, player: Player, club: Club | None) -> None:
    if kind is MailKind.REMINDERS:
        calendar.member_reminders_set(player, False)
    elif kind is MailKind.RESULTS:
        Player.objects.filter(pk=player.pk).update(result_emails=False)
    elif kind is MailKind.NEWS and club is not None:
        news_reader_set(club, player, False)


@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> TemplateResponse:
    try:
        kind, player, club_id = unsubscribe_read(token)
    except LinkRefused:
        return TemplateResponse(request, "front/unsubscribe.html", {"refused": True}, status=404)
    club = Club.objects.filter(pk=club_id).first() if club_id else None
    done = request.method == "POST"
    if done:
        _turn_off(kind, player, club)
    context = {"kind": kind.value, "player": player, "club": club, "done": done}
    return TemplateResponse(request, "front/unsubscribe.html", context)
