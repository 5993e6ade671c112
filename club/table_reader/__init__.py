"""The site's table reader: a table a club admin has (a CSV file, an Excel workbook, cells
pasted from a spreadsheet or a web page) read as rows of text, within caps counted as it is
read. Both imports read through it, the members' (``club/views/member_import.py``) and a past
season's ranking (``club/views/ranking_import.py``):

- ``files``: the readers, and a ranking's headings guessed;
- ``budget``: what reading a table may cost, counted row by row;
- ``workbook_budget``: a workbook's parts checked before openpyxl opens it;
- ``forms``: the table's form (a file, or cells pasted) and the column step's;
- ``columns``: the column step both imports take (which column is which, the table's
  preview).

What the columns mean is each import's: ``club/member_import/`` for members,
``scoring/services/ranking_import.py`` for a ranking."""
