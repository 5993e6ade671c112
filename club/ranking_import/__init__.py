"""A past season's ranking imported, the club side: its table read from a CSV file, an Excel
workbook or a paste (``files``), within a ranking's budget counted while it is read
(``budget``), a workbook's parts checked before openpyxl opens it (``workbook_budget``).

The rest of the road: the page (``club/views/ranking_import.py``, the lines of an imported
season corrected in ``club/views/imported_lines.py``), the names matched to the club's players
(``club/name_matching.py``), the season stored with its imported snapshot
(``scoring/services/ranking_import.py``, a line corrected in
``scoring/services/imported_lines.py``)."""
