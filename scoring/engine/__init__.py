"""The scoring engine: point tables, deal scoring, standings and rankings.

Pure Python (standard library only): it knows nothing of the site. Everything that turns what
happened at a table into points calls it — score sheets, imports, the API, the command line.
"""
