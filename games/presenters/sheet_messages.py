"""What the phone's script (static/js/sheet.js) says, in the visitor's language."""

from __future__ import annotations

from django.utils.translation import gettext as _


def sheet_messages() -> dict[str, str]:
    """What sheet.js says, in the visitor's language: each failure with what to do."""
    return {
        "waiting_one": _("1 donne en attente sur ce téléphone"),
        "waiting_many": _("{n} donnes en attente sur ce téléphone"),
        "offline_short": _("pas de réseau"),
        # The header while deals wait: their points added to the totals, marked "≈".
        "provisional_one": _("provisoire : 1 donne en attente comprise"),
        "provisional_many": _("provisoire : {n} donnes en attente comprises"),
        "provisional_note": _("≈ : totaux provisoires"),
        "not_in_totals": _("pas encore dans les totaux"),
        "some_not_in_totals": _("dont {n} pas encore dans les totaux"),
        "offline": _(
            "Pas de réseau : les donnes attendent sur ce téléphone et partiront d'elles-mêmes "
            "au retour de la connexion. Gardez cette page ouverte ; vous pouvez continuer à "
            "marquer."
        ),
        "saving": _("Enregistrement…"),
        "retry": _("Réessayer"),
        "discard": _("Retirer cette donne de la file"),
        "choose_contract": _("Choisissez le contrat."),
        "login": _(
            "Vous n'êtes plus connecté : ouvrez une session dans un autre onglet, puis touchez "
            "« Réessayer ». La donne attend sur ce téléphone."
        ),
        "forbidden": _(
            "Refusé : la soirée est clôturée ou vous n'êtes plus marqueur du club. La donne "
            "n'est pas enregistrée et attend sur ce téléphone : demandez à un administrateur "
            "du club de rouvrir la soirée (puis « Réessayer »), ou notez-la sur papier."
        ),
        "gone": _(
            "Cette table n'existe plus (le tour a été tiré à nouveau ?) : la donne n'est pas "
            "enregistrée. Rechargez la page et notez la donne à sa nouvelle table."
        ),
        "server": _(
            "Le serveur a eu un problème (erreur {status}) : la donne n'est pas enregistrée et "
            "attend sur ce téléphone. Réessayez dans un moment ; si cela dure, notez les "
            "donnes sur papier."
        ),
        "paused_after_refusal": _(
            "Cette donne est revenue dans le formulaire (voir le message) : corrigez-la et "
            "enregistrez-la. Les {n} donne(s) qui la suivent attendent sur ce téléphone et "
            "partiront après elle, dans l'ordre."
        ),
        "refused_alone": _(
            "Cette donne est revenue dans le formulaire (voir le message) : corrigez-la et "
            "enregistrez-la."
        ),
        "refused_fix": _("Donne refusée, à corriger"),
        "session_changed": _(
            "Votre session a changé (une connexion dans un autre onglet ?) : rechargez la "
            "page, puis touchez « Réessayer ». Les donnes attendent sur ce téléphone."
        ),
        "login_undo": _(
            "Vous n'êtes plus connecté : rien n'a été annulé. Ouvrez une session dans un "
            "autre onglet, puis réessayez."
        ),
        "undo_waiting": _(
            "Des donnes attendent encore d'être envoyées : annulez après leur envoi, ou "
            "retirez-les de la file."
        ),
        "forbidden_undo": _(
            "Refusé : la soirée est clôturée ou vous n'êtes plus marqueur. Rien n'a été annulé."
        ),
        "server_undo": _(
            "Le serveur a eu un problème (erreur {status}) : rien n'a été annulé. Réessayez "
            "dans un moment."
        ),
        "offline_undo": _("Pas de réseau : rien n'a été annulé. Réessayez au retour du réseau."),
    }
