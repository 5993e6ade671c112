"""The plumbing every app uses and none of them is about: the outbox (work that follows a
commit), the throttle of attempts, the client's address behind the site's proxies, the cache
that never fails a page, one-line logs, the id path converter, a language's punctuation and the
login stamp. It imports no app and no site module (``config``): the apps stand on it.

Its two tables (``PendingWork``, ``ThrottleEvent``) are defined here but belong to the ``club``
app, as they always have (their migrations are club's); ``club.models`` re-exports them."""
