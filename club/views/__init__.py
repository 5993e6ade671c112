"""The club site's HTML views, one module per topic."""
