"""The names of what is played, as the club says them (translated): shared by the score
sheet's forms and the member's statistics."""

from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from club.models import GAME_LABELS
from scoring.engine.games.belgian_whist import PASS
from scoring.engine.tables import PRESETS

CONTRACT_LABELS = {
    "emballage": _("Emballage"),
    "solo": _("Solo"),
    "petite_misere": _("Petite misère"),
    "solo_sur_misere": _("Solo 8 sur petite misère"),
    "abondance": _("Abondance"),
    "trou": _("Trou"),
    "grande_misere": _("Grande misère"),
    "grande_misere_table": _("Grande misère sur table"),
    "petit_chelem": _("Petit solo chelem"),
    "chelem": _("Solo chelem"),
    "piccolo": _("Piccolo"),
    PASS: _("Tous passent"),
}

# Each contract's short code on the sheet, the printed sheets and the legend, as each
# language's score sheets write it; the stored code (the engine's name) stays one. French: the
# Walloon clubs' codes. Dutch: as Flemish kleurenwiezen sheets write them (V for vraag en
# meegaan, A for alleen, AB abondance, KM/GM/OM kleine, grote and open miserie, SS solo slim,
# T troel). English: the contracts' English names. Within a language a code means one
# contract (tests/games/test_labels.py); the paper entry reads the page's language's codes,
# then the French ones.
CONTRACT_CODES = {
    "fr": {
        "emballage": "E",
        "solo": "S",
        "petite_misere": "PM",
        "solo_sur_misere": "SM",
        "abondance": "A",
        "trou": "T",
        "grande_misere": "GM",
        "grande_misere_table": "GMT",
        "petit_chelem": "PC",
        "chelem": "C",
        "piccolo": "Pi",
        PASS: "Passe",
    },
    "nl": {
        "emballage": "V",
        "solo": "A",
        "petite_misere": "KM",
        "solo_sur_misere": "AKM",
        "abondance": "AB",
        "trou": "T",
        "grande_misere": "GM",
        "grande_misere_table": "OM",
        "petit_chelem": "KS",
        "chelem": "SS",
        "piccolo": "Pi",
        PASS: "Pas",
    },
    "en": {
        "emballage": "PA",
        "solo": "S",
        "petite_misere": "SM",
        "solo_sur_misere": "SOM",
        "abondance": "AB",
        "trou": "T",
        "grande_misere": "M",
        "grande_misere_table": "OM",
        "petit_chelem": "SSL",
        "chelem": "SL",
        "piccolo": "Pi",
        PASS: "Pass",
    },
}


def contract_code(contract: str, language: str | None = None) -> str:
    """``contract``'s short code in ``language`` (the reader's by default; French for a
    language without a table); an unknown contract by its stored name."""
    language = (language or get_language() or "fr").split("-")[0]
    return CONTRACT_CODES.get(language, CONTRACT_CODES["fr"]).get(contract, contract)


# The code as a lazy text: read in the language active where it is written.
contract_code_lazy = lazy(contract_code, str)


# Each preset point table by its name as the club knows it (the `label` of its JSON file):
# pages, forms and the admin never show the file's code (`rcwhist`, `a_trois`).
POINT_TABLE_LABELS = {
    "rcwhist": _("RCWhist La Chevalerie (tableau des clubs wallons)"),
    "whisthub": _("Whisthub (standard en ligne)"),
    "iwwa": _("IWWA (championnat de Belgique)"),
    "whist7": _("Whist en 7 points"),
    "simple10": _("Partie simple en deux manches de 10 points"),
    "robre10": _("Robre, manches de 10 points"),
    "robre5": _("Robre, manches de 5 points"),
    "coeurs": _("Les Cœurs (dame de pique à 12)"),
    "coeurs13": _("Les Cœurs (dame de pique à 13, partie en cinq coups)"),
    "besigue": _("Bésigue (à deux, en 1 500 points)"),
    "sans_retourne": _("Bésigue sans retourne (en 1 500 points)"),
    "a_trois": _("Bésigue à trois ou Trifouille (en 2 000 points)"),
    "a_quatre": _("Bésigue à quatre, jeu individuel (en 2 000 points)"),
    "chinois": _("Bésigue chinois (six paquets)"),
    "huit_paquets": _("Bésigue à huit paquets"),
    "rubicon": _("Bésigue Rubicon (quatre paquets)"),
}


def point_table_label(name: str) -> str:
    """A preset's label in the reader's language; a club's own table by its code."""
    return str(POINT_TABLE_LABELS.get(name, name))


def rules_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The presets a club may play, grouped by game, each by its label (the night's form and
    the club's default in the admin)."""
    return [
        (str(GAME_LABELS[game]), [(name, point_table_label(name)) for name in names])
        for game, names in PRESETS.items()
    ]
