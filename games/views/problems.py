"""The engine's refusals in the club's language.

The engine says what is wrong with a deal as a stable code and its parameters, next to its
English message (``scoring/engine/errors.py``); the services hand them on as Django's
``ValidationError(message, code=, params=)``. Here each code becomes a French sentence (msgids
are French; EN and NL come from the translation files), with the contract as the club reads it
("Solo", "Emballage"), players by their names at the table and the deal numbered as on the sheet.

A code with no sentence here (an engine newer than the site) shows the engine's English message,
made readable as before; so does an English page whose translation is not written yet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext, gettext_noop

from ..dealforms import COMBINATION_LABELS
from ..labels import CONTRACT_LABELS

_ = gettext_noop  # msgids only: translated when the sentence is built, in the page's language


def _table_size(params: Mapping[str, Any]) -> str:
    if params.get("minimum") == params.get("maximum"):
        return _("À ce jeu, une table compte %(minimum)s joueurs, pas %(got)s.")
    return _("À ce jeu, une table compte de %(minimum)s à %(maximum)s joueurs, pas %(got)s.")


def _declarer_count(params: Mapping[str, Any]) -> str:
    if params.get("expected") == 1:
        return _("%(contract)s se joue avec un seul déclarant : %(got)s sont cochés.")
    return _("%(contract)s se joue avec %(expected)s déclarants, pas %(got)s.")


# Every code the engine gives (tests/games/views/test_problems.py checks that none is missing).
ENGINE_MESSAGES: dict[str, str | Callable[[Mapping[str, Any]], str]] = {
    # Any game
    "table_size": _table_size,
    "deal_not_object": _("Cette donne est illisible."),
    "not_at_table": _("%(player)s n'est pas à cette table."),
    "penalties_shape": _("Les pénalités sont illisibles."),
    "expected_non_negative": _("Un nombre positif ou nul est attendu, pas %(got)s."),
    "too_large": _("Au plus %(maximum)s, pas %(got)s."),
    "expected_true_or_false": _("Oui ou non est attendu, pas %(got)s."),
    "preset_unknown": _("Tableau des points inconnu : %(got)s."),
    "table_invalid": _("Tableau des points refusé : %(detail)s"),
    "settings_invalid": _("Réglage refusé : %(detail)s"),
    "night_file_invalid": _("Fichier de soirée refusé : %(detail)s"),
    # What a deal may hold (scoring/engine/dealkeys.py)
    "deal_key_unknown": _(
        "Une donne de ce jeu ne connaît pas « %(key)s » : elle contient %(allowed)s."
    ),
    "text_too_long": _("Texte trop long : %(got)s caractères, au plus %(maximum)s."),
    "too_many_items": _("Trop d'éléments : %(got)s, au plus %(maximum)s."),
    "value_kind": _("Valeur illisible à cet endroit de la donne : %(got)s."),
    "integer_outside": _("Un nombre de %(minimum)s à %(maximum)s est attendu, pas %(got)s."),
    # Belgian whist
    "contract_unknown": _("Contrat inconnu : %(got)s."),
    "contract_not_in_table": _("%(contract)s n'est pas dans le tableau des points « %(table)s »."),
    "bid_missing": _("%(contract)s demande une enchère : %(bids)s."),
    "bid_not_in_table": _(
        "%(contract)s %(bid)s n'est pas dans le tableau des points « %(table)s » : "
        "enchères possibles %(bids)s."
    ),
    "bid_not_integer": _("L'enchère est un nombre, pas %(got)s."),
    "declarers_not_list": _("Cochez le ou les déclarants."),
    "declarer_count": _declarer_count,
    "declarers_each_count": _("%(contract)s se joue avec 1 à %(maximum)s déclarants, pas %(got)s."),
    "declarer_twice": _("Un joueur est coché deux fois parmi les déclarants."),
    "declarer_is_mort": _(
        "%(seat)s est le mort de cette donne (le donneur à une table de 5) : "
        "il ne peut pas être déclarant."
    ),
    "seat_not_at_table": _("%(seat)s n'est pas à cette table."),
    "penalty_not_playing": _(
        "%(seat)s ne joue pas cette donne (il est le mort) : pas de pénalité."
    ),
    "tricks_per_declarer": _("%(contract)s demande les plis de chaque déclarant."),
    "tricks_of_declarers_only": _("Indiquez les plis de chaque déclarant, et seulement les leurs."),
    "tricks_not_integer": _("Les plis sont des nombres."),
    "tricks_one_count": _("%(contract)s demande les plis des déclarants, en un seul nombre."),
    "tricks_total": _("Les déclarants auraient fait %(got)s plis : il n'y en a que %(maximum)s."),
    "tricks_total_all_declare": _(
        "Tous les joueurs jouent %(contract)s : ensemble, ils font exactement %(expected)s plis, "
        "pas %(got)s."
    ),
    "tricks_outside": _("%(got)s plis : c'est entre 0 et %(maximum)s."),
    "tricks_unreadable": _("Les plis %(tricks)s ne se lisent pas pour %(player)s."),
    # Classic whist
    "team_shape": _("Indiquez les deux partenaires de l'équipe."),
    "team_player_twice": _("%(player)s est nommé deux fois : il faut deux partenaires."),
    "not_a_team": _(
        "%(players)s ne forment pas une équipe de cette donne : %(team)s ou %(other)s."
    ),
    "team_tricks_shape": _("Indiquez l'équipe et ses plis."),
    "team_tricks_outside": _("Une équipe fait de 0 à 13 plis, pas %(got)s."),
    "tricks_missing": _("Une donne jouée demande les plis d'une équipe."),
    "honours_not_counted": _("Le tableau « %(table)s » ne compte pas les honneurs."),
    "honours_shape": _("Indiquez l'équipe qui a les honneurs et leur nombre."),
    "honours_count": _("3 ou 4 honneurs d'atout, pas %(got)s."),
    "revokes_shape": _("Les renonces sont illisibles."),
    "revokes_count": _("Une renonce au moins, pas %(got)s."),
    "revokes_twice": _("Les renonces de %(players)s sont indiquées deux fois."),
    "chante_not_in_table": _("Le tableau « %(table)s » ne connaît pas « je chante »."),
    "chante_honours_only": _("Une donne non jouée (« je chante ») ne compte que les honneurs."),
    "chante_needs_honours": _("Une donne non jouée (« je chante ») demande les honneurs."),
    "chante_score": _(
        "« Je chante » demande que l'équipe des honneurs ait %(expected)s points : "
        "%(team)s en ont %(got)s."
    ),
    "teams_out_of_turn": _(
        "Les équipes sont %(team)s contre %(other)s, mais la partie %(partie)s de la partie "
        "générale se joue %(expected_team)s contre %(expected_other)s."
    ),
    "partie_generale_over": _(
        "La partie générale est finie : ses %(parties)s parties sont jouées, cette donne est de "
        "trop."
    ),
    # Hearts
    "players_shape": _("Indiquez un joueur ou une liste de joueurs."),
    "hearts_shape": _("Indiquez les cœurs pris par chaque joueur."),
    "hearts_outside": _("%(player)s : de 0 à 13 cœurs, pas %(got)s."),
    "hearts_total": _("Les cœurs font %(got)s au total, il en faut %(expected)s."),
    "hearts_missing": _(
        "Sans renonce, la donne demande les cœurs de chacun et qui a pris la dame de pique."
    ),
    "queen_missing": _("Indiquez qui a pris la dame de pique."),
    # Bésigue
    "declarations_shape": _("Les annonces sont illisibles : %(got)s."),
    "combination_not_in_table": _("%(combination)s n'existe pas dans le tableau « %(table)s »."),
    "declared_too_often": _(
        "%(combination)s annoncé %(got)s fois dans le coup : %(maximum)s au plus."
    ),
    "brisques_shape": _("Indiquez les brisques de chaque joueur (%(expected)s en tout)."),
    "brisques_outside": _("%(player)s : de 0 à %(maximum)s brisques, pas %(got)s."),
    "brisques_missing": _(
        "Le tableau « %(table)s » compte les brisques : indiquez celles de chaque joueur."
    ),
    "brisques_total": _(
        "Les brisques font %(got)s au total, il en faut %(expected)s (%(decks)s jeux)."
    ),
    "last_trick_missing": _("Indiquez qui a fait la dernière levée."),
    "last_trick_not_at_table": _(
        "%(player)s, qui aurait fait la dernière levée, n'est pas à cette table."
    ),
    "coup_table_size": _("Ce coup ne correspond pas à une table de %(got)s joueurs."),
    "not_one_coup": _("Le tableau « %(table)s » se joue jusqu'à un total, pas en un coup."),
    "chouette_opponents": _("Le joueur au pot a au moins un adversaire, pas %(got)s."),
    "chouette_players": _("Une chouette se joue à 2 joueurs au moins, pas %(got)s."),
}

# Parameters that name one player (as the sheet names him: his seat number "1" … "5"), one seat
# (a number from 1) or a team or a list of players.
_ONE = frozenset({"player", "seat"})
_SEVERAL = frozenset({"players", "team", "other", "expected_team", "expected_other"})

_DEAL_PLACE = re.compile(r"^deals\[(\d+)\]")
_ENGLISH_DEAL_PLACE = re.compile(r"^deals\[(\d+)\](?:\.[\w\[\]]+)?: ")
# The engine names a seat "3" (the deal's own reference) or seat 3 (its position).
_SEAT = re.compile(r'"([1-5])"|\bseat ([1-5])\b')


def _name(value: Any, names: Mapping[str, str]) -> str:
    if value is None:
        return "—"
    return names.get(str(value), str(value))


def _shown(key: str, value: Any, names: Mapping[str, str]) -> Any:
    if key in _ONE:
        return _name(value, names)
    if key in _SEVERAL and isinstance(value, Sequence) and not isinstance(value, str):
        return " + ".join(_name(item, names) for item in value)
    if key == "contract":
        return CONTRACT_LABELS.get(value, value)
    if key == "combination":
        return COMBINATION_LABELS.get(value, value)
    return value


def deal_named(index: int, numbers: Sequence[int | None] | None = None) -> str:
    """The deal at ``index`` of the sheet (0 = the first dealt) as the sheet numbers it:
    ``numbers`` gives each deal's number there (None for a pass, which takes none); without
    them, deals are counted from 1."""
    if numbers is not None and index < len(numbers):
        number = numbers[index]
        if number is None:
            return gettext("Donne passée : ")
        return gettext("Donne %(number)s : ") % {"number": number}
    return gettext("Donne %(number)s : ") % {"number": index + 1}


def readable_problem(
    message: str, names: Mapping[str, str], numbers: Sequence[int | None] | None = None
) -> str:
    """The engine's English message made readable: the deal numbered as on the sheet and seats
    named ('deals[6].declarers: seat 5 is the mort' → 'Donne 7 : "Eva" is the mort')."""
    message = _ENGLISH_DEAL_PLACE.sub(lambda m: deal_named(int(m.group(1)), numbers), message)
    return _SEAT.sub(lambda m: f'"{names.get(m.group(1) or m.group(2), m.group(0))}"', message)


def engine_problem(
    code: str | None,
    params: Mapping[str, Any],
    english: str,
    names: Mapping[str, str],
    place: str = "",
    numbers: Sequence[int | None] | None = None,
) -> str:
    """One refusal of the engine in the page's language: its code's sentence with the
    parameters named as the club reads them, after the deal's number; the English message
    (made readable) for a code without a sentence, or on an English page not translated yet."""
    entry = ENGINE_MESSAGES.get(code or "")
    if entry is None:
        return readable_problem(english, names, numbers)
    msgid = entry(params) if callable(entry) else entry
    sentence = gettext(msgid)
    if sentence == msgid and (get_language() or "").startswith("en"):
        return readable_problem(english, names, numbers)
    try:
        text = sentence % {key: _shown(key, value, names) for key, value in params.items()}
    except (KeyError, TypeError, ValueError):
        return readable_problem(english, names, numbers)
    deal = _DEAL_PLACE.match(place)
    if deal:
        text = deal_named(int(deal.group(1)), numbers) + text
    return text


def refusal_texts(
    error: ValidationError,
    names: Mapping[str, str],
    numbers: Sequence[int | None] | None = None,
) -> list[str]:
    """Each problem of a refused deal, in words: the engine's in the page's language (its code
    and parameters travel in the ``ValidationError``), any other as it was said. ``numbers``:
    each deal's number on the sheet (see ``deal_named``)."""
    if not hasattr(error, "error_list"):  # a model's errors by field: said as they are
        return [readable_problem(message, names, numbers) for message in error.messages]
    texts = []
    for item in error.error_list:
        params = item.params or {}
        english = item.message % params if params else item.message
        if "place" in params:
            engine = {key: value for key, value in params.items() if key != "place"}
            texts.append(
                engine_problem(item.code, engine, str(english), names, params["place"], numbers)
            )
        else:
            texts.append(readable_problem(str(english), names, numbers))
    return texts
