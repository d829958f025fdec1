"""The validate API's compile caches: one per user, for the latest few users."""

from __future__ import annotations

from backend.compiler import compile_program
from backend.programs.compile_caches import CompileCaches
from tests.threads import run_racing


def test_a_user_gets_the_same_cache_and_another_user_another() -> None:
    caches = CompileCaches(size=2)
    assert caches.of(1) is caches.of(1)
    assert caches.of(1) is not caches.of(2)


def test_only_the_caches_of_the_latest_users_are_kept() -> None:
    caches = CompileCaches(size=2)
    first = caches.of(1)
    compile_program("CREATE TABLE t (a INT);", first)
    caches.of(2)
    caches.of(1)  # 1 is now more recent than 2
    caches.of(3)
    assert len(caches) == 2
    assert caches.of(1) is first
    assert caches.of(2) is not None and caches.of(2).size == 0  # a new, empty cache


def test_threads_taking_caches_at_once_share_one_cache_per_user() -> None:
    caches = CompileCaches(size=4)
    taken: dict[int, set[int]] = {user: set() for user in range(4)}

    def take() -> None:
        for step in range(2000):
            user = step % 4
            taken[user].add(id(caches.of(user)))

    run_racing(take)
    # Four users fit: none lost its cache, whatever the interleaving.
    assert all(len(ids) == 1 for ids in taken.values())
