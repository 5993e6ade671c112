"""How a player is named to whoever reads: the one rule every page, export, API answer and
e-mail asks (``name_shown``), so that a member who chose his initials is never named in full
to somebody who does not know him.

A member who keeps his full name (the default) is named by it to everybody. A member who
chose « Initiales » is named, by reader:

=============================================================  ==========================
reader                                                         he reads
=============================================================  ==========================
the player himself                                             his full name
a member (open membership, a guest's too) of a club where the  his full name
player is or was a member or a guest
the site's operator (superuser: the Django admin shows all)    his full name
an anonymous visitor, the public                               his initials
the room screen's private link (projected for guests: nobody)  his initials
a member or club admin of other clubs only                     his initials
a federation admin, an inter-club night's host, scorer or      his initials
admin, in none of the player's clubs
a former member of the player's club (his own membership       his initials
ended)
=============================================================  ==========================

The club side counts the player's past memberships too: a club's old nights and rankings read
to its members as they did when he played there. The reader side counts only open memberships:
who leaves a club stops knowing its members' names.

A ``NameReader`` is made once per request (``name_reader_of``, remembered on the user) and asks the
database at most once, lazily, and only when a player who chose initials is to be named: a
list page adds no query per row, and none at all where nobody chose initials.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.functional import SimpleLazyObject

from .models import Membership, Player
from .name_search import name_filter

INITIALS = Player.PublicName.INITIALS


class NameReader:
    """Who reads a page: an account (``user``), a member's record (an e-mail's recipient,
    ``player``), or nobody (the public, a projected screen: ``NameReader()``)."""

    def __init__(self, *, user: Any = None, player: Player | None = None) -> None:
        self._user = user
        self._player = player

    def _himself(self) -> Q | None:
        """His own player record, as a filter; None for the public."""
        if self._player is not None:
            return Q(pk=self._player.pk)
        if self._user is not None and self._user.is_authenticated:
            return Q(user_id=self._user.pk)
        return None

    @cached_property
    def everyone(self) -> bool:
        """The site's operator knows every name (the Django admin shows them all)."""
        return self._user is not None and getattr(self._user, "is_superuser", False)

    @cached_property
    def clubs(self) -> frozenset[int]:
        """The clubs where he is a member today (one query; none for the public)."""
        himself = self._himself()
        if himself is None:
            return frozenset()
        return frozenset(
            Membership.objects.current()
            .filter(player__in=Player.objects.filter(himself))
            .values_list("club_id", flat=True)
        )

    def known_players(self) -> QuerySet[Player]:
        """The players he may see by their full names, as a query not yet run: himself and
        whoever is or was a member or a guest of one of his clubs (his clubs a subquery)."""
        himself = self._himself()
        if himself is None:
            return Player.objects.none()
        if "clubs" in self.__dict__:
            clubs: Any = self.clubs
        else:
            clubs = (
                Membership.objects.current()
                .filter(player__in=Player.objects.filter(himself))
                .values("club_id")
            )
        return Player.objects.filter(himself | Q(memberships__club_id__in=clubs))

    @cached_property
    def known(self) -> frozenset[int]:
        """``known_players``' ids (one query; none for the public)."""
        if self._himself() is None:
            return frozenset()
        return frozenset(self.known_players().values_list("pk", flat=True).distinct())

    @property
    def audience(self) -> str:
        """What his names depend on, for a cache key shared by the readers who read the same
        names: "all" (the operator), "public", his clubs ("c3.7"), or himself alone ("p42", a
        player in no club today)."""
        if self.everyone:
            return "all"
        if self.clubs:
            return "c" + ".".join(str(pk) for pk in sorted(self.clubs))
        if self.known:
            return "p" + ".".join(str(pk) for pk in sorted(self.known))
        return "public"

    def knows(self, player: Player) -> bool:
        return self.everyone or player.pk in self.known

    def annotate(self, players: QuerySet[Player]) -> QuerySet[Player]:
        """``players`` each marked whether this reader knows him, in the same query (a page
        that reads its players anyway then asks nothing more for their names)."""
        if self.everyone or self._himself() is None:
            return players
        known = self.known_players().filter(pk=OuterRef("pk"))
        return players.annotate(known_to_reader=Exists(known))

    def account_alone(self) -> int | None:
        """His account's id when ``annotate`` asks the same query of every such reader whatever
        his id (a member by his account, not the operator, his clubs not read yet): a query
        compiled once for any account (``infra.compiled``) then reads for him; else None."""
        user = self._user
        if self._player is not None or user is None or not user.is_authenticated:
            return None
        if self.everyone or "clubs" in self.__dict__:
            return None
        return user.pk

    def name(self, player: Player) -> str:
        """``name_shown(player, self)``: a namer to hand to presenters and exports."""
        return name_shown(player, self)


# Nobody: the public, and the room screen's private link (projected where guests see it).
PUBLIC = NameReader()


def name_shown(player: Player, reader: NameReader | None) -> str:
    """The name ``reader`` reads for ``player``: his full name, or his initials when he chose
    them and the reader does not know him (the table above). ``None``: the public."""
    if player.public_name != INITIALS:
        return player.display_name
    # Read with ``NameReader.annotate`` for this reader: already known, nothing more to ask.
    known = getattr(player, "known_to_reader", None)
    if known is None:
        known = reader is not None and reader.knows(player)
    return player.display_name if known else player.initials


def recipients(readers: Iterable[Player], named: Iterable[Player]) -> dict[int, NameReader]:
    """Each reader (an e-mail's recipient) as the ``NameReader`` of the ``named`` players only: two
    queries for all of them (their clubs, the named players' clubs), not two a recipient.
    The rule is the table's, read from both sides' memberships."""
    readers = list(readers)
    hidden = {p.pk for p in named if p.public_name == INITIALS}
    clubs_of: dict[int, set[int]] = {r.pk: set() for r in readers}
    player_clubs: dict[int, set[int]] = {pk: set() for pk in hidden}
    if hidden:
        for player, club in (
            Membership.objects.current()
            .filter(player__in=clubs_of)
            .values_list("player_id", "club_id")
        ):
            clubs_of[player].add(club)
        for player, club in Membership.objects.filter(player__in=hidden).values_list(
            "player_id", "club_id"
        ):
            player_clubs[player].add(club)
    name_readers = {}
    for recipient in readers:
        reader = NameReader(player=recipient)
        reader.__dict__["clubs"] = frozenset(clubs_of[recipient.pk])
        reader.__dict__["known"] = frozenset(
            {recipient.pk}
            | {pk for pk, clubs in player_clubs.items() if clubs & clubs_of[recipient.pk]}
        )
        name_readers[recipient.pk] = reader
    return name_readers


def full_name_searchable(reader: NameReader, through: str = "") -> Q:
    """The players whose full name ``reader`` may search by: a search that found a member
    by the full name it then shows as initials would tell who he is all the same.
    ``through``: the path to the player from the rows filtered ("player" from a ranking's
    lines)."""
    if reader.everyone:
        return Q()
    at = f"{through}__" if through else ""
    return ~Q(**{f"{at}public_name": INITIALS}) | Q(
        **{f"{at}pk__in": reader.known_players().values("pk")}
    )


def searched_by_name(
    reader: NameReader, words: list[str], *, through: str = "", by_initials: bool = True
) -> Q:
    """Every search by name asks this: the players ``reader`` may find by the typed words
    (``club.name_search.typed_words``). By his full name (its folded, indexed copy) a player
    whose full name the reader may read; and, ``by_initials``, every player who chose
    initials, as a candidate only: the database keeps no initials, so the caller keeps those
    whose name as shown holds the words (``name_search.name_holds(name_shown(...))``)."""
    found = full_name_searchable(reader, through) & name_filter(words, through)
    if by_initials:
        at = f"{through}__" if through else ""
        found |= Q(**{f"{at}public_name": INITIALS})
    return found


def name_reader_of(user: Any) -> NameReader:
    """The reader a request's user is, made once and remembered on the user for the request
    (as ``club.permissions.club_role`` remembers his roles)."""
    if user is None or not user.is_authenticated:
        return PUBLIC
    reader = user.__dict__.get("_name_reader")
    if reader is None:
        reader = user.__dict__["_name_reader"] = NameReader(user=user)
    return reader


def name_reader_context(request: Any) -> dict[str, Any]:
    """Every template's ``name_reader`` (a view may set another: the room screen's private link
    sets ``PUBLIC``). Found only when a name asks for it: a page that names nobody who chose
    initials reads nothing for it."""
    return {"name_reader": SimpleLazyObject(lambda: name_reader_of(getattr(request, "user", None)))}
