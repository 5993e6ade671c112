"""The plumbing every app uses and none of them is about: the outbox (work that follows a
commit), the throttle of attempts, the client's address behind the site's proxies, the cache
that never fails a page, one-line logs, the id path converter, a language's punctuation and the
login stamp. It imports no app and no site module (``config``): the apps stand on it.

It is an app of its own (label ``infra``) for its two tables, ``PendingWork`` and
``ThrottleEvent`` (``infra.models``), whose tables keep the names they had as club's."""
