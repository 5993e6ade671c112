"""What the club's pages read, as plain queries with no request: one module a topic
(``merges``). A view asks a selector and shows what it gives; the rules of who may see what
are the selector's arguments (a ``club.names.NameReader``, a club)."""
