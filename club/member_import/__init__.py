"""Members brought in from a spreadsheet: the table read as the ranking import reads one
(``table``: the same readers and budgets), each line read and refused in words (``lines``),
then matched to the club's players (``review``); the club admin answers what is unsure and
``club.member_import.store`` stores the whole in one transaction.

The modules are imported by name: ``lines`` and ``review`` read no file, so a service may use
them without pulling in the file readers."""
