"""The site's shell, an app of its own beside the club's (as healthchecks keeps ``hc/front``
beside ``hc/accounts``): the home page, the club directory's join request, the guide, the
privacy page, the installable app and its offline page, uploads, the health check and the
error pages. It stands on club, games and scoring; no app below imports it."""
