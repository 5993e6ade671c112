"""Recording deals at the table: the guards that keep a sheet true while several phones write
to it (the night's lock, client keys that make a retried deal count once, a deal undone since,
a sheet changed meanwhile) and the table's deal count.

``deals_record`` is the one service that appends deals (stored by ``sheets.poule_sheet_store``);
``deal_record`` is the score sheet's and the API's. A deal sent again with its phone's key is
answered here, in every case: ``deals_record`` while the night runs, ``deal_record`` when two
tries cross, ``deal_resent`` for a page that may no longer write (the night closed since).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from games.models import Deal, DealChange, Poule, Seat, Tournament
from games.numbering import deal_numbers, removed_numbers
from games.services import require_open
from scoring.engine.games import game_module

from .sheets import (
    NightLine,
    night_locked,
    poule_sheet_store,
    tournament_standings_update,
)

TABLE_GONE = _lazy("Cette table n'existe plus : le tour a été tiré à nouveau. Rechargez la page.")


def _locked_sheet(
    tournament: Tournament, poule: Poule, *, with_night_lines: bool
) -> tuple[list[Deal], list[NightLine] | None]:
    """Lock the night (see ``corrections._poule_locked``) and read its state and the poule's
    history count again under the lock, in the same query as making sure the poule is still
    there (a round drawn again drops it), as (``with_night_lines``) the night's standing lines
    as stored and as the poule's deals (``night_locked``); without the night's lines (an
    importer), the poule's deals are read next, under the lock. The night's row alone is
    locked (a database without row locks, SQLite, serialises the writers itself)."""
    if with_night_lines:
        status, corrections, lines, sheet = night_locked(tournament, poule=poule)
        state = (status, corrections[poule.pk]) if poule.pk in corrections else None
    else:
        lines, sheet = None, None
        state = (
            Tournament.objects.select_for_update(of=("self",))
            .filter(pk=tournament.pk, poules=poule.pk)
            .values_list("status", "poules__corrections")
            .first()
        )
    if state is None:
        raise ValidationError(TABLE_GONE)
    tournament.status, poule.corrections = state
    if sheet is None:
        sheet = list(poule.deals.order_by("position"))
    return sheet, lines


def _removed_keys_check(poule: Poule, keys: Sequence[Any]) -> None:
    """A retry of a deal that was recorded, then removed from the sheet (undone by a scorer):
    refused, not recorded again behind the scorers' backs. Only a poule with a history is
    asked (nearly none: no query)."""
    sent = [key for key in keys if key is not None]
    if not sent or not poule.corrections:
        return
    removal = (
        DealChange.objects.filter(
            poule=poule, action=DealChange.Action.DELETED, client_key__in=sent
        )
        .order_by("-at", "-pk")
        .first()
    )
    if removal is None:
        return
    # Named by the number it had on the sheet when it was undone (a refusal only: the sheet
    # and its removals are read for it, never on the way of a deal that is recorded).
    removals = list(poule.changes.filter(action=DealChange.Action.DELETED))
    number = removed_numbers(
        poule.tournament.game, list(poule.deals.order_by("position")), removals
    )[removal.pk]
    if number is None:
        message = _(
            "La passe envoyée par ce téléphone a été enregistrée, puis retirée de la feuille "
            "depuis : elle n'est pas enregistrée à nouveau. Vérifiez la feuille et encodez la "
            "donne à nouveau si elle doit y être."
        )
    else:
        message = _(
            "La donne %(number)s envoyée par ce téléphone a été enregistrée, puis retirée "
            "de la feuille depuis : elle n'est pas enregistrée à nouveau. Vérifiez la "
            "feuille et encodez la donne à nouveau si elle doit y être."
        ) % {"number": number}
    raise DealConflict(message, code="deal_removed")


class DealConflict(ValidationError):
    """The sheet changed under the scorer's feet (another phone recorded, corrected or removed
    a deal meanwhile): nothing was written; the page shows the sheet as it is now and says
    what happened, and the scorer decides. The views answer it with 409."""


def key_reused_check(deal: Deal, data: dict[str, Any]) -> None:
    """A key the poule knows, sent with another deal: a client's bug (a key made once and
    reused), not a retry. Refused: answering the stored deal would lose the new one unseen."""
    if deal.sent_as(data):
        return
    sheet = list(deal.poule.deals.order_by("position"))
    number = deal_numbers(deal.poule.tournament.game, sheet)[sheet.index(deal)]
    if number is None:
        message = _(
            "Cette donne a été envoyée avec la clé d'une passe déjà enregistrée et "
            "différente : rien n'a été enregistré. Rechargez la feuille, vérifiez-la et "
            "encodez la donne à nouveau si elle n'y est pas."
        )
    else:
        message = _(
            "Cette donne a été envoyée avec la clé de la donne %(number)s, déjà "
            "enregistrée et différente : rien n'a été enregistré. Rechargez la feuille, "
            "vérifiez-la et encodez la donne à nouveau si elle n'y est pas."
        ) % {"number": number}
    raise DealConflict(message, code="key_reused")


def _deal_count_guard(
    poule: Poule, sheet: Sequence[Deal], seat_count: int, adding: int, *, longer: bool
) -> None:
    """A table at its deal count (the club's, plus the deals the scorer added tonight) refuses
    more deals, a pass included: the poule is over. ``longer``: the scorer says the poule is
    longer tonight; the count then follows the deals once they are scored
    (``extra_deals_follow``): a pass saved with it adds nothing."""
    tournament = poule.tournament
    if not game_module(tournament.game).FIXED_DEALS_PER_POULE:
        return  # classic whist, hearts and bésigue play to a score, not to a number of deals
    tonight = poule.deals_tonight(seat_count)
    counted = sum(1 for deal in sheet if deal.counted)
    if counted < tonight or longer:
        return
    raise ValidationError(
        _(
            "Cette table a ses %(count)s donnes : la poule est finie. Si elle est plus "
            "longue ce soir, cochez « La poule est plus longue ce soir » et enregistrez "
            "à nouveau."
        )
        % {"count": tonight},
        code="poule_complete",
    )


def extra_deals_follow(poule: Poule, seat_count: int, *, grow: bool) -> None:
    """The deals added tonight, read from the sheet as just scored (``poule.counted_deals``):
    the counted deals beyond the club's count. It grows only when the scorer said the poule is
    longer (``grow``); an undo, a removal or a deal corrected into a pass brings it back down,
    so the close check never waits for a deal nobody will play."""
    if not game_module(poule.tournament.game).FIXED_DEALS_PER_POULE:
        return
    beyond = max(0, poule.counted_deals - poule.tournament.deals_per_poule(seat_count))
    extra = beyond if grow else min(poule.extra_deals, beyond)
    if extra != poule.extra_deals:
        poule.extra_deals = extra
        Poule.objects.filter(pk=poule.pk).update(extra_deals=extra)


@transaction.atomic
def deals_record(
    poule: Poule,
    deals_data: Sequence[dict[str, Any]],
    by: AbstractBaseUser | None = None,
    *,
    seats: Sequence[Seat] | None = None,
    night_standings: bool = True,
    client_keys: Sequence[Any] | None = None,
    seen: int | None = None,
    within_count: bool = False,
    longer: bool = False,
) -> list[Deal]:
    """Append deals to a poule's score sheet, score it, and update the standings.

    Deals name players by seat number ("1" … "5"). The engine checks the whole sheet before
    anything is written, so a refused deal leaves the sheet as it was. ``seats``: the poule's
    seats in seat order, when the caller has them (the score sheet does).
    ``night_standings=False``: an importer filling every poule of a night sums the night's
    standings once, at the end (``tournament_standings_update``).

    What the score sheet at the table adds (an importer needs none of it):
    ``client_keys``: one key per deal, made by the scorer's phone. A deal whose key the poule
    already has was recorded by an earlier try of the same request: nothing is written and
    the deal stored then is handed back (with ``replayed`` set), as the first answer did.
    ``seen``: how many deals the phone's sheet showed; another number means somebody else
    changed the sheet meanwhile (``DealConflict``). ``within_count``: a table at its deal
    count refuses more deals unless ``longer`` (the poule is longer tonight).

    The night is locked first, and alone: it serialises every change of its sheets, and a
    round drawn again meanwhile shows as the poule gone (refused in words). The ``poule``
    passed in gets ``sheet_deals`` and ``sheet_standings``: what was stored, for the page.
    """
    tournament = poule.tournament
    sheet, stored_night_lines = _locked_sheet(tournament, poule, with_night_lines=night_standings)
    keys = list(client_keys) if client_keys is not None else [None] * len(deals_data)
    known = {deal.client_key: deal for deal in sheet if deal.client_key is not None}
    # A retry of a deal already recorded is answered as the first time, even once the night
    # is closed meanwhile: the deal is not lost, and nothing is written.
    if keys and all(key is not None and key in known for key in keys):
        for key, data in zip(keys, deals_data, strict=True):
            key_reused_check(known[key], data)
        poule.sheet_deals = sheet
        replayed = [known[key] for key in keys]
        for deal in replayed:
            deal.replayed = True
        return replayed
    # Before the night's state: a deal undone since is said so, even once the night is closed.
    _removed_keys_check(poule, keys)
    require_open(tournament)
    if seen is not None and seen != len(sheet):
        raise DealConflict(
            _(
                "Quelqu'un d'autre a changé cette feuille pendant ce temps (%(now)s donnes au "
                "lieu de %(seen)s) : rien n'a été enregistré. Vérifiez la feuille, puis "
                "enregistrez votre donne si elle n'y est pas."
            )
            % {"now": len(sheet), "seen": seen},
            code="sheet_changed",
        )
    if seats is None:
        seats = list(poule.seats.order_by("number").only("number", "player_id", "poule_id"))
    if within_count:
        _deal_count_guard(poule, sheet, len(seats), len(deals_data), longer=longer)
    new = [
        Deal(
            poule=poule,
            position=len(sheet) + index,
            data=data,
            recorded_by=by,
            client_key=key,
            client_digest=Deal.digest_of(data) if key is not None else "",
        )
        for index, (data, key) in enumerate(zip(deals_data, keys, strict=True), start=1)
    ]
    # The night's standings as they stood, read once under the lock: the poule's and the
    # night's lines are written only where this deal changed them, none read back.
    poule_sheet_store(
        poule, [*sheet, *new], seats, appended=True, stored_night_lines=stored_night_lines
    )
    if night_standings:
        tournament_standings_update(
            tournament, appended=True, stored_night_lines=stored_night_lines, poule=poule
        )
    if within_count and longer:
        extra_deals_follow(poule, len(seats), grow=True)
    return new


def deal_record(
    poule: Poule,
    data: dict[str, Any],
    by: AbstractBaseUser | None = None,
    *,
    seats: Sequence[Seat] | None = None,
    client_key: Any = None,
    seen: int | None = None,
    longer: bool = False,
) -> Deal:
    """Record one deal at the table: the score sheet's service. The table's deal count holds
    (see ``deals_record``); ``client_key`` makes a retried deal count once."""
    try:
        return deals_record(
            poule,
            [data],
            by,
            seats=seats,
            client_keys=[client_key],
            seen=seen,
            within_count=True,
            longer=longer,
        )[0]
    except IntegrityError:
        # The same deal sent twice at once (a double tap, two tries crossing) where the
        # database has no row lock to make one wait (SQLite): the other try stored it first,
        # and the key's constraint says so. Answered as a retry; anything else is raised.
        resent = deal_resent(poule.tournament, poule.pk, client_key, data)
        if resent is None:
            raise
        return resent


def deal_resent(
    tournament: Tournament, poule_id: int, client_key: Any, data: dict[str, Any]
) -> Deal | None:
    """The deal a poule of ``tournament`` already holds under this phone's key, when it comes
    again (its answer was lost, or the night closed before it came): handed back with
    ``replayed`` set, to be answered as the first time, whatever the night's state. None for a
    key the poule does not know. The same key with another deal is refused (``DealConflict``).

    ``deals_record`` answers a retry itself while the night runs; this is for a page that may
    no longer write (a scorer's retry once the night is closed) and for two tries crossing."""
    if client_key is None:
        return None
    deal = Deal.objects.filter(
        poule_id=poule_id, poule__tournament=tournament, client_key=client_key
    ).first()
    if deal is None:
        return None
    key_reused_check(deal, data)
    deal.replayed = True
    return deal
