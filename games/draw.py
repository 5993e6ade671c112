"""The table draw of a club-night round: who sits at which poule, in which seat.

Pure logic on player ids, so a draw can be tested, replayed and explained without a database.
Every draw is reproducible: all chance comes from ``random.Random(seed)`` and the site stores
the seed, so the same players, method, earlier rounds and seed give the same tables again.

Tables are of 4 players, with tables of 5 only as needed (at a table of 5 the dealer sits the
deal out); a table of 3 cannot play, so 1–3, 6, 7 and 11 present players cannot be seated.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

# How rounds 2+ are drawn (round 1 is always random: there are no standings and nobody has met).
DRAW_METHODS = ("avoid_repeats", "standings")
# "random" is also accepted by draw_round: it is what round 1 uses.
ALL_METHODS = ("random", *DRAW_METHODS)

# Bounds of the avoid_repeats search. A round is drawn while the players wait, so when no
# perfect draw exists (late rounds, or 9 or 13 players) the search gives up after this many
# swap evaluations, whatever the number of players: about 0.1 s on the club's machine. Perfect
# draws are usually found in a few milliseconds. Restarts matter for small nights, where a
# search can get stuck around one arrangement.
SEARCH_EVALUATIONS = 200_000
SEARCH_RESTARTS = 8
# The two players just swapped stay put for the next step, so the search does not undo its last
# swap. Longer tabu tenures found fewer perfect draws in trials (16 to 36 players, rounds 4 to 8).
TABU_STEPS = 1


class DrawRefused(ValueError):
    """The present players cannot be drawn; ``message`` is the French, user-facing reason."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def seatable(present: int) -> bool:
    """Whether ``present`` players fit at tables of 4 and 5: present = 4a + 5b needs
    b = present mod 4 tables of 5, each taking one player from a table of 4 (b <= present // 4)."""
    return present >= 4 and present % 4 <= present // 4


def number_word(count: int) -> str:
    """A small count in words, as the club writes it in a sentence ("ajoutez un joueur")."""
    words = {
        1: pgettext("nombre de joueurs", "un"),
        2: pgettext("nombre de joueurs", "deux"),
        3: pgettext("nombre de joueurs", "trois"),
        4: pgettext("nombre de joueurs", "quatre"),
    }
    return words.get(count, str(count))


def refusal(present: int) -> str:
    """Why ``present`` players cannot be seated, with the nearest counts that can be."""
    if present == 0:
        return _("Aucun joueur présent : il en faut au moins quatre pour une table.")
    reason = ngettext(
        "%(present)s joueur ne peut pas être réparti en tables de 4 ou 5",
        "%(present)s joueurs ne peuvent pas être répartis en tables de 4 ou 5",
        present,
    ) % {"present": present}
    above = next(count for count in range(max(present, 4), present + 5) if seatable(count))
    add = ngettext(
        "ajoutez %(count)s joueur (%(total)s)",
        "ajoutez %(count)s joueurs (%(total)s)",
        above - present,
    ) % {"count": number_word(above - present), "total": above}
    below = next((count for count in range(present, 3, -1) if seatable(count)), None)
    if below is None:
        return _("%(reason)s : %(add)s.") % {"reason": reason, "add": add}
    remove = ngettext(
        "retirez-en %(count)s (%(total)s)",
        "retirez-en %(count)s (%(total)s)",
        present - below,
    ) % {"count": number_word(present - below), "total": below}
    return _("%(reason)s : %(add)s ou %(remove)s.") % {
        "reason": reason,
        "add": add,
        "remove": remove,
    }


def table_sizes(present: int) -> list[int]:
    """Sizes of the tables for ``present`` players: tables of 4 first, then the tables of 5
    (only as many as needed: present mod 4). Refuses a count that cannot be seated."""
    if present < 0:
        raise ValueError(f"a number of players cannot be negative: {present}")
    if not seatable(present):
        raise DrawRefused(refusal(present))
    fives = present % 4
    return [4] * (present // 4 - fives) + [5] * fives


def pairs_met(tables: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """For each unordered pair of players, how many of ``tables`` they shared (pass the tables
    of the night's earlier rounds to build the ``met`` of avoid_repeats)."""
    met: dict[frozenset[int], int] = {}
    for table in tables:
        for pair in combinations(table, 2):
            key = frozenset(pair)
            met[key] = met.get(key, 0) + 1
    return met


def repeat_count(tables: Sequence[Sequence[int]], met: Mapping[frozenset[int], int]) -> int:
    """How many pairs seated together in ``tables`` already met: the sum of their ``met``
    counts (a pair that met twice counts twice). This is what avoid_repeats minimises."""
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2))


def cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """``order`` cut into consecutive tables of ``sizes``."""
    tables = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def draw_round(
    players: Sequence[int],
    *,
    seed: int,
    method: str = "random",
    met: Mapping[frozenset[int], int] | None = None,
) -> list[list[int]]:
    """Tables in table order (table 1 first), each a list of player ids in seat order (seat 1
    deals first).

    - ``random``: the players shuffled and cut into tables of ``table_sizes``.
    - ``avoid_repeats``: the random draw of the same seed, improved by swapping players between
      tables so that as few pairs as possible sit together again (``met``: how many times each
      pair already shared a table tonight). Never worse than the random draw of the same seed.
    - ``standings``: ``players`` best first; the best four at table 1, the next four at table 2
      and so on, the tables of 5 (the last ones) taking the last players.

    Except for ``standings`` the order of ``players`` does not matter: they are sorted first,
    so reading the present players in another order replays the same draw.
    """
    if method not in ALL_METHODS:
        raise ValueError(f"unknown draw method {method!r}; expected one of {ALL_METHODS}")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice among the present players")
    sizes = table_sizes(len(players))
    rng = random.Random(seed)

    if method == "standings":
        tables = cut(players, sizes)
        # Seats are shuffled so that the leader does not always deal first.
        for table in tables:
            rng.shuffle(table)
        return tables

    order = sorted(players)
    rng.shuffle(order)
    tables = cut(order, sizes)
    if method == "random":
        return tables
    tables = avoid_repeats(tables, met or {}, rng)
    for table in tables:
        rng.shuffle(table)
    return tables


def avoid_repeats(
    start: list[list[int]], met: Mapping[frozenset[int], int], rng: random.Random
) -> list[list[int]]:
    """The tables with as few repeats as the search finds, starting from ``start``.

    A tabu search on swaps (min-conflicts): take a player who sits with someone already met and
    swap them with the player of another table for which the draw improves most (or worsens
    least, to walk out of a dead end); stop at 0 repeats or when the budget is spent. Swaps keep
    the table sizes. From the second start on, the players are shuffled afresh.
    """
    ids = sorted(player for table in start for player in table)
    index = {player: i for i, player in enumerate(ids)}
    count = len(ids)
    # weight[i][j]: how many times players i and j met, as a matrix for fast sums.
    weight = [[0] * count for _ in range(count)]
    for pair, times in met.items():
        if len(pair) != 2 or not times:
            continue
        a, b = pair
        if a in index and b in index:
            i, j = index[a], index[b]
            weight[i][j] = weight[j][i] = times

    sizes = [len(table) for table in start]
    tables_count = len(sizes)
    best_tables = [[index[player] for player in table] for table in start]
    best_cost = cost_of(best_tables, weight)
    steps_per_start = max(50, SEARCH_EVALUATIONS // (SEARCH_RESTARTS * count))

    for restart in range(SEARCH_RESTARTS):
        # With a single table there is nobody to swap with.
        if best_cost == 0 or tables_count == 1:
            break
        if restart == 0:
            tables = [list(table) for table in best_tables]
        else:
            order = list(range(count))
            rng.shuffle(order)
            tables = cut(order, sizes)
        table_of = [0] * count
        for t, table in enumerate(tables):
            for i in table:
                table_of[i] = t
        # links[i][t]: how many times player i already met the players now at table t.
        links = [[0] * tables_count for _ in range(count)]
        for i in range(count):
            row = weight[i]
            links_i = links[i]
            for t, table in enumerate(tables):
                links_i[t] = sum(row[j] for j in table)
        cost = cost_of(tables, weight)
        if cost < best_cost:
            best_cost, best_tables = cost, [list(table) for table in tables]
        tabu_until = [0] * count

        for step in range(1, steps_per_start + 1):
            if cost == 0:
                break
            conflicted = [i for i in range(count) if links[i][table_of[i]]]
            p = rng.choice(conflicted)
            a = table_of[p]
            links_p = links[p]
            row_p = weight[p]
            leaving = links_p[a]
            best_delta = None
            candidates: list[int] = []
            for q in range(count):
                b = table_of[q]
                if b == a:
                    continue
                links_q = links[q]
                delta = links_p[b] + links_q[a] - 2 * row_p[q] - leaving - links_q[b]
                if tabu_until[q] > step and cost + delta >= best_cost:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, candidates = delta, [q]
                elif delta == best_delta:
                    candidates.append(q)
            if best_delta is None:
                continue
            q = rng.choice(candidates)
            b = table_of[q]
            tables[a][tables[a].index(p)] = q
            tables[b][tables[b].index(q)] = p
            table_of[p], table_of[q] = b, a
            row_q = weight[q]
            for r in range(count):
                change = row_q[r] - row_p[r]
                if change:
                    links_r = links[r]
                    links_r[a] += change
                    links_r[b] -= change
            cost += best_delta
            tabu_until[p] = tabu_until[q] = step + TABU_STEPS
            if cost < best_cost:
                best_cost, best_tables = cost, [list(table) for table in tables]

    return [[ids[i] for i in table] for table in best_tables]


def cost_of(tables: Sequence[Sequence[int]], weight: Sequence[Sequence[int]]) -> int:
    """repeat_count on player indexes and the weight matrix."""
    return sum(weight[i][j] for table in tables for i, j in combinations(table, 2))
