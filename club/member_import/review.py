"""Each line of a members' table set against the club: a new player, a member it has already,
a former member or a guest who becomes a member again, or a name the club admin must settle
("Anne Dupont ↔ A. Dupont ?": the same person or a new player). A line is refused when its
address is another member's of the club; a new player whose address another club's member has
is stored with his name alone until he accepts the invitation. What the review says of an
address is the same whether it has an account on the site or not.

All of it in a fixed number of queries, whatever the length of the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from infra.converters import typed_id
from infra.typography import named

from ..models import Club, Membership, Player
from ..name_matching import AMBIGUOUS, LIKE, SAME, name_matches
from .lines import MemberLine, problems_said
from .store import MemberEntry

# What a line becomes.
NEW = "new"  # a new player and his membership
MEMBER = "member"  # a member the club has: nothing changes
RETURNS = "returns"  # a former member or a guest: a member again from today
ASK = "ask"  # the club admin says who it is
REFUSED = "refused"
# The club admin's answer for a line: a new player (else the id of the player it is).
NEW_PLAYER = "new"


@dataclass
class ReviewedLine:
    """A line of the table and what it becomes in the club."""

    line: MemberLine
    kind: str
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Why no invitation goes, when the line has an address (empty: it goes, or no address).
    no_invitation: str = ""
    # The name only looks like the candidates' (initials, several players): the admin says.
    unsure: bool = False
    # Why the address is not stored with the new player yet (empty: it is): another club's
    # member has it; it is his when he accepts the invitation.
    address_held: str = ""

    @property
    def refusal(self) -> str:
        return problems_said(self.line.line, self.problems) if self.problems else ""

    @property
    def invited(self) -> bool:
        return bool(self.line.email) and not self.no_invitation and self.kind != MEMBER


@dataclass
class ClubPlayers:
    """What the review needs to know of the club's players, read once."""

    players: list[Player]
    state: dict[int, str]  # player id → MEMBER, RETURNS (a guest or a former member)
    by_email: dict[str, Player]
    # Addresses (lower case) of the table that are another club's member's: the line's new
    # player is stored without it, until that person accepts the invitation.
    elsewhere: set[str]

    @classmethod
    def read(cls, club: Club, emails: Sequence[str]) -> ClubPlayers:
        players = list(Player.objects.in_club(club).select_related("user").order_by("pk"))
        state = dict.fromkeys((p.pk for p in players), RETURNS)
        for player_id in (
            Membership.objects.current()
            .filter(club=club)
            .exclude(status=Membership.Status.GUEST)
            .values_list("player_id", flat=True)
        ):
            state[player_id] = MEMBER
        by_email: dict[str, Player] = {}
        for player in players:
            for address in (player.email, player.user.email if player.user else ""):
                if address:
                    by_email.setdefault(address.lower(), player)
        wanted = sorted({email for email in emails if email})
        elsewhere: set[str] = set()
        if wanted:
            # Whether an address has an account is never read: the review says the same of
            # every address, so that it tells the club's admin nothing of other people.
            for on_file, login in (
                Player.objects.filter(Membership.objects.current_q("memberships"))
                .exclude(memberships__club=club)
                .annotate(on_file=Lower("email"), login=Lower("user__email"))
                .filter(Q(on_file__in=wanted) | Q(login__in=wanted))
                .values_list("on_file", "login")
            ):
                elsewhere |= {on_file, login} & set(wanted)
        return cls(players, state, by_email, elsewhere)


def members_review(
    club: Club, lines: Sequence[MemberLine], answers: Mapping[int, str] | None = None
) -> list[ReviewedLine]:
    """Each line against the club's players; ``answers`` (line → NEW_PLAYER or a player's id)
    settles the lines the matching is unsure of. Without an answer such a line stays ASK."""
    answers = answers or {}
    known = ClubPlayers.read(club, [line.email for line in lines])
    by_pk = {player.pk: player for player in known.players}
    matches = name_matches([line.name for line in lines], known.players)
    reviewed = []
    for line, match in zip(lines, matches, strict=True):
        row = ReviewedLine(
            line, NEW, candidates=list(match.candidates), problems=list(line.problems)
        )
        answer = answers.get(line.line, "")
        if match.kind == SAME:
            row.player = match.candidates[0]
        elif match.kind in (LIKE, AMBIGUOUS):
            row.unsure = True
            chosen = by_pk.get(typed_id(answer))
            if chosen is not None and chosen in match.candidates:
                row.player = chosen
            elif answer != NEW_PLAYER:
                row.kind = ASK
        if row.player is not None:
            row.kind = known.state[row.player.pk]
        _address_checked(row, known)
        if row.problems:
            row.kind = REFUSED
        reviewed.append(row)
    return reviewed


def _address_checked(row: ReviewedLine, known: ClubPlayers) -> None:
    email = row.line.email
    if not email:
        return
    owner = known.by_email.get(email)
    if owner is not None and owner != row.player and row.kind != ASK:
        row.problems.append(
            named(
                _("l'adresse %(email)s est celle de %(player)s, un autre membre du club"),
                email=email,
                player=owner.display_name,
            )
        )
    if row.player is not None and row.player.user_id is not None:
        row.no_invitation = _("a déjà un compte")
    elif row.player is None and email in known.elsewhere:
        row.address_held = _(
            "adresse notée quand la personne acceptera l'invitation : le nom seul d'ici là"
        )


def entries_of(reviewed: Sequence[ReviewedLine]) -> list[MemberEntry]:
    """The good lines as the service stores them (refused and unsettled lines left out)."""
    return [
        MemberEntry(
            row.line,
            row.player.pk if row.player else None,
            invite=row.invited,
            address_held=bool(row.address_held),
        )
        for row in reviewed
        if row.kind in (NEW, RETURNS, MEMBER)
    ]
