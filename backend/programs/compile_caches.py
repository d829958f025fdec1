"""One compile cache per user validating as they type (backend/compiler/cache.py).

The editor sends its whole program on every keystroke; with the cache of the
user's previous compiles, only the statements that changed are compiled again.
The caches of the few users who validated most recently are kept (each holds
about two versions of one program); a web server runs requests in threads, so
taking a cache is locked, and each cache locks its own compiles.

A cache takes some 85 bytes per character of each program version it holds
(measured: 13.5 MB for a 5,000-line program and one edit of it), so programs
longer than `MAX_CHARS` compile without one: the caches of `USERS` users stay
under some 150 MB.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from backend.compiler.cache import CompileCache

USERS = 8
MAX_CHARS = 100_000  # some 3,000 lines


class CompileCaches:
    """The compile caches of the `size` users who used theirs most recently."""

    def __init__(self, size: int = USERS) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._caches: OrderedDict[Hashable, CompileCache] = OrderedDict()

    def __len__(self) -> int:
        return len(self._caches)

    def of(self, user: Hashable) -> CompileCache:
        """The user's cache (a new one for a user not among the latest `size`)."""
        with self._lock:
            cache = self._caches.pop(user, None)
            if cache is None:
                cache = CompileCache()
            self._caches[user] = cache
            while len(self._caches) > self.size:
                self._caches.popitem(last=False)
            return cache


# This process's caches: the validate API's (programs/services.py).
CACHES = CompileCaches()
