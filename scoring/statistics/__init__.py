"""The « cote » and the statistics, one room: each figure counted in one place.

- ``cote``: the skill rating (« cote »), the model and a night rated (no Django);
- ``nights``: the statistics of a player's night (deals, mort, roles, contracts declared and
  made, partners, opponents), summed once when the cote is written and stored with it
  (``PlayerNightStats``), and how a player's nights add up into his contracts and partners;
- ``totals``: a player's statistics at his club and a season's at the club, added up from the
  stored nights (the statistics pages, the API);
- ``member``: a member's own results of a season ("Mes résultats"): his nights, the chart
  against the club, and his contracts and partners from the same night lines.

``scoring.services.ratings`` writes the cote and the nights' statistics, from a night on."""
