"""The demo clubs' pages, so that the Quick start shows a club's own site: RCWhist's « Le club »,
« Règlement interne » and « Règles du jeu » (whose headings the point table links to), and a
short « Le club » for the hearts club. Written through ``clubsite.pages`` as an admin writes
them; a club that has pages already keeps them. Called by ``manage.py demo_club``."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from club.models import Club

from . import pages
from .models import Page

RCWHIST_CLUB = """\
Le Racing Club de Whist « La Chevalerie » joue au whist à la belge depuis plus de trente ans.

## Où et quand

- **Le deuxième jeudi du mois**, de septembre à juin, à **19 h 30** (accueil dès 19 h).
- Salle de la Chevalerie, rue du Manège 12, 1300 Wavre (premier étage, ascenseur).
- Une soirée compte trois tours de poules de quatre joueurs (ou cinq avec un mort).

## Cotisation

| | par saison |
|---|---|
| Membre | 25 € |
| Moins de 25 ans | 10 € |
| Invité, par soirée | 3 € |

La cotisation comprend le café et les cartes ; le bar est tenu par le club.

## Comment venir

- En train : gare de Wavre, puis 10 minutes à pied par la rue de Namur.
- En voiture : parking gratuit derrière la salle.

Un nouveau joueur est toujours le bienvenu : venez un jeudi, le président vous placera à une
table de joueurs patients. Voir aussi le [règlement interne](/clubs/{slug}/reglement-interne/)
et les [règles du jeu](/clubs/{slug}/regles-du-jeu/).
"""

RCWHIST_RULES = """\
Le règlement adopté par l'assemblée générale du club.

1. Les soirées commencent à 19 h 30 précises ; un joueur en retard attend le tour suivant.
2. Les tables sont tirées au sort à chaque tour par le site ; nul ne choisit sa place.
3. Le marqueur de la table inscrit chaque donne sur son téléphone ou sur la feuille de papier ;
   les joueurs vérifient les points avant la donne suivante.
4. Une contestation est tranchée par l'arbitre de la soirée ; sa décision est sans appel.
5. Le classement annuel retient les **meilleures soirées** de chaque joueur, selon les règles
   de la saison affichées sur la page du classement.
6. Les téléphones restent silencieux pendant les donnes.
7. Le bar ferme à 23 h 30.
"""

RCWHIST_GAME = """\
Le whist à la belge se joue à quatre, avec un jeu de 52 cartes. Chaque joueur annonce à son
tour ; le contrat le plus haut l'emporte. Les points de chaque contrat sont dans la
[table des points](/clubs/{slug}/table-des-points/).

## Emballage

Deux partenaires, associés pour la donne, s'engagent à faire au moins le nombre de plis
annoncé (8 au moins), l'atout étant la couleur de la dernière carte distribuée.

## Solo

Un joueur seul s'engage à faire au moins 6 plis contre les trois autres.

## Petite misère

Le déclarant s'engage à ne faire **aucun pli** sur douze cartes, sans atout ; chaque joueur
écarte une carte avant de jouer.

## Abondance

Un joueur seul annonce 9 plis ou plus, en choisissant l'atout.

## Trou

Le joueur qui a reçu trois as est obligé de s'associer au joueur qui tient le quatrième.

## Grande misère

Aucun pli sur treize cartes, sans atout.

## Grande misère sur table

Une grande misère jouée cartes étalées sur la table après le premier pli.

## Solo chelem

Un joueur seul fait les treize plis ; il entame.

## Tous passent

Personne n'annonce : la donne est refaite par le donneur suivant et ne prend pas de numéro.
"""

HEARTS_CLUB = """\
Le Cercle des Cœurs de Namur se retrouve **un mardi par mois**, de janvier à juin, à 20 h,
au café « Le Pilori », place d'Armes 3, Namur.

- Cotisation : 15 € par an, première soirée gratuite.
- On joue aux cœurs à quatre : la dame de pique compte 12 points, chaque cœur un point ;
  le moins de points gagne.
"""


HEARTS_GAME = """\
## Le but

Prendre **le moins de points possible**. Chaque cœur ramassé vaut un point, la dame de pique
douze ; qui les ramasse tous (« grand chelem ») en donne vingt-cinq à chacun des autres.

## Le jeu

- Avant chaque donne, on passe trois cartes à son voisin (à gauche, à droite, en face, puis
  on garde).
- Le deux de trèfle entame ; on fournit à la couleur demandée.
- On n'entame pas à cœur tant qu'aucun cœur n'a été joué.

La partie s'arrête quand un joueur passe les 100 points.
"""


def demo_pages(rcwhist: Club, hearts: Club, by: AbstractBaseUser | None) -> str:
    """Each demo club's pages, written once; what was written, said in a line."""
    written = 0
    plans = {
        rcwhist: [
            ("Le club", RCWHIST_CLUB, False),
            ("Règlement interne", RCWHIST_RULES, True),
            ("Règles du jeu", RCWHIST_GAME, False),
        ],
        hearts: [("Le club", HEARTS_CLUB, False), ("Règles du jeu", HEARTS_GAME, False)],
    }
    for club, plan in plans.items():
        if Page.objects.filter(club=club).exists():
            continue
        for position, (title, text, members_only) in enumerate(plan, start=1):
            fields = {
                "title": title,
                "text": text.format(slug=club.slug),
                "members_only": members_only,
                "position": position,
            }
            pages.page_create(club, fields, by)
            written += 1
    return f"Club site pages: {written} written."
