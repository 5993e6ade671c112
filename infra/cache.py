"""The cache is an optimisation, never a dependency: a Redis that does not answer makes the
site draw its pages from the database, as it would with an empty cache.

Every cache operation that fails is answered as a miss (a read finds nothing, a write keeps
nothing); the first failure of an outage is logged once, and for a few seconds after it the
cache is not even asked, so a page with twenty cached parts does not wait twenty times for a
connection that will not come. ``/healthz`` says "cache down" meanwhile, without failing: the
site still serves."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Seconds the cache is left alone after a failure before it is tried again.
RETRY_SECONDS = 5.0

_outage: dict[str, float | None] = {"since": None, "retry_at": 0.0}
_lock = threading.Lock()


def cache_down_since() -> float | None:
    """When the current outage began (a time.time()), or None while the cache answers."""
    return _outage["since"]


def _failed(error: Exception) -> None:
    now = time.time()
    with _lock:
        first = _outage["since"] is None
        if first:
            _outage["since"] = now
        _outage["retry_at"] = now + RETRY_SECONDS
    if first:
        log.warning("cache down, pages drawn from the database: %s", error)


def _answered() -> None:
    if _outage["since"] is not None:
        with _lock:
            if _outage["since"] is not None:
                log.warning("cache back after %.0f s", time.time() - (_outage["since"] or 0))
                _outage["since"] = None


def _fail_safe(name: str, missed: Callable[..., Any]) -> Callable[..., Any]:
    method = getattr(RedisCache, name)

    def call(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        if _outage["since"] is not None and time.time() < (_outage["retry_at"] or 0):
            return missed(*args, **kwargs)
        try:
            answer = method(self, *args, **kwargs)
        except (RedisError, OSError) as error:
            _failed(error)
            return missed(*args, **kwargs)
        _answered()
        return answer

    call.__name__ = name
    call.__doc__ = method.__doc__
    return call


def _default(key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _none_found(*args: Any, **kwargs: Any) -> dict:
    return {}


def _none_kept(data: Any, *args: Any, **kwargs: Any) -> list:
    return list(data)  # set_many: the keys that were not kept


def _missing(key: Any, *args: Any, **kwargs: Any) -> Any:
    raise ValueError(f"Key '{key}' not found")  # incr/decr of a key the cache does not hold


class FailSafeRedisCache(RedisCache):
    """Django's Redis cache, whose every failure is a miss (see the module's note)."""

    get = _fail_safe("get", _default)
    get_many = _fail_safe("get_many", _none_found)
    has_key = _fail_safe("has_key", _false)
    set = _fail_safe("set", _nothing)
    set_many = _fail_safe("set_many", _none_kept)
    add = _fail_safe("add", _false)
    touch = _fail_safe("touch", _false)
    delete = _fail_safe("delete", _false)
    delete_many = _fail_safe("delete_many", _nothing)
    incr = _fail_safe("incr", _missing)
    clear = _fail_safe("clear", _false)
