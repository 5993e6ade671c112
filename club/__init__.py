"""Who: clubs, players, memberships and roles, seasons, accounts and federations (the ground
floor of the domain; the site package is ``config``, the plumbing every app uses ``infra``)."""
