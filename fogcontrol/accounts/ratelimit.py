"""A small counter in Django's cache for the password pages (the sign-in page has django-axes).

- Password reset requests: `FOGCONTROL_PASSWORD_RESET_LIMIT` per hour from one address and, as
  many, for one email address, so the form cannot be used to flood a mailbox.
- Password change: `FOGCONTROL_PASSWORD_CHANGE_FAILURE_LIMIT` wrong current passwords per user in
  15 minutes, so a session left open cannot be used to guess the password it does not know.

The counts live in the default cache: per process by default, shared by every process and server
when FOGCONTROL_CACHE_URL names a Redis (as the token endpoint's DRF throttle; docs/deployment.md).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

RESET_WINDOW_SECONDS = 3600
CHANGE_WINDOW_SECONDS = 15 * 60


def _key(kind: str, value: str) -> str:
    return f"fogcontrol:ratelimit:{kind}:{hashlib.sha256(value.lower().encode()).hexdigest()}"


def count(kind: str, value: str) -> int:
    return cache.get(_key(kind, value), 0)


def hit(kind: str, value: str, window_seconds: int) -> int:
    """Count one more; the window starts with the first hit."""
    key = _key(kind, value)
    if cache.add(key, 1, timeout=window_seconds):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window_seconds)
        return 1


def clear(kind: str, value: str) -> None:
    cache.delete(_key(kind, value))
