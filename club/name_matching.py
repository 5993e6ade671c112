"""A name as a published ranking wrote it, matched to the club's players.

Old rankings write names every way: "DUPONT Jean", "Dupont Jéan", "J. Dupont". Two names are
the same when their words are the same whatever the order, the case and the accents
(``club.models.name_key``); a name with initials is *like* a player whose words it abbreviates
("J. Dupont" ~ "Jean Dupont"), never the same: the club admin confirms it. Several players a
name could be are all offered, none chosen: a ranking's name is never guessed silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import permutations

from .models import Player, name_key

SAME = "same"  # one player of exactly these words
LIKE = "like"  # one player whose words these initials abbreviate
AMBIGUOUS = "ambiguous"  # several players it could be: the club admin chooses
NEW = "new"  # nobody of the club: a new player


def name_words(name: str) -> tuple[str, ...]:
    """The words of a name as compared: no case, no accents; "J.-P." and "Jean-Pierre" split at
    their hyphens, an initial's dot dropped."""
    words = name_key(name).replace("-", " ").replace(".", ". ").split()
    return tuple(word.rstrip(".") for word in words if word.rstrip("."))


def _initial_of(short: str, word: str) -> bool:
    return len(short) == 1 and word.startswith(short)


def _abbreviates(written: Sequence[str], full: Sequence[str]) -> bool:
    """Whether ``written`` is ``full`` with at least one word cut to its initial, in any
    order ("j dupont" → "jean dupont", "dupont j" → "jean dupont")."""
    if len(written) != len(full) or len(full) > 6:
        return False
    for order in permutations(full):
        if all(w == f or _initial_of(w, f) for w, f in zip(written, order, strict=True)):
            return True
    return False


@dataclass
class NameMatch:
    """What a written name is to the club: ``kind`` (SAME, LIKE, AMBIGUOUS, NEW), the players
    it could be, and the one proposed (None: a new player, or the admin must choose)."""

    written: str
    kind: str
    candidates: list[Player] = field(default_factory=list)

    @property
    def proposed(self) -> Player | None:
        return self.candidates[0] if self.kind in (SAME, LIKE) else None


def name_matches(names: Iterable[str], players: Iterable[Player]) -> list[NameMatch]:
    """Each name matched to ``players`` (the club's): exact words first (any order), then
    initials; several players: ambiguous."""
    by_words: dict[tuple[str, ...], list[Player]] = {}
    keyed = []
    for player in players:
        words = name_words(player.display_name)
        by_words.setdefault(tuple(sorted(words)), []).append(player)
        keyed.append((words, player))
    matches = []
    for name in names:
        words = name_words(name)
        same = by_words.get(tuple(sorted(words)), [])
        if len(same) == 1:
            matches.append(NameMatch(name, SAME, same))
            continue
        if same:
            matches.append(NameMatch(name, AMBIGUOUS, same))
            continue
        like = [
            player
            for full, player in keyed
            if _abbreviates(words, full) or _abbreviates(full, words)
        ]
        kind = NEW if not like else LIKE if len(like) == 1 else AMBIGUOUS
        matches.append(NameMatch(name, kind, like))
    return matches
