"""Threads started together, taking turns as often as Python lets them: races show."""

import sys
import threading
from collections.abc import Callable


def run_racing(target: Callable[[], None], threads: int = 4) -> None:
    """Run `target` in `threads` threads at once and wait for them all."""
    started = [threading.Thread(target=target) for _ in range(threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in started:
            thread.start()
        for thread in started:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
