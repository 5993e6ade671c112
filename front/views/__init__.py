"""The shell's HTML views, one module per page or file the site serves."""
