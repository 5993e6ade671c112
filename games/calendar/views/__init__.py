"""The calendar's pages: the members' (``members``) and the secretary's (``secretary``)."""
