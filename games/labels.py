"""The names of what is played, as the club says them (translated): shared by the score
sheet's forms and the member's statistics."""

from django.utils.translation import gettext_lazy as _

from scoring.engine.games.belgian_whist import PASS

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
