"""Keep the garbage collector's full collections out of the players' way (opt-in).

With thousands of websockets the server holds millions of objects that the collector
tracks, and CPython's full (generation 2) collection walks all of them while the event
loop stands still: at 1,500 tables (6,000 sockets) about 0.9 s on the 2-core test
machine, once in every 30–60 s — which is what the slowest 1 % of actions waited for
(docs/performance.md, "Scale: one box").

With ``STAMMTISCH_GC_FREEZE=<seconds>`` the server runs :func:`freeze_loop`: every
``seconds`` it collects the young generations (cheap) and then ``gc.freeze()``s what is
left — the long-lived objects (tables, connections) move to the permanent generation,
which later collections skip, so the full collections that still come only walk what
was made since.  Cyclic garbage among frozen objects is not collected until the next
*thaw*: every ``STAMMTISCH_GC_THAW`` seconds (default 60 × the freeze interval) the loop
unfreezes and runs one full collection — the one long pause left, now rare instead of
twice a minute.

``stammtisch serve`` sets ``STAMMTISCH_GC_FREEZE=10`` unless the environment says
otherwise (``STAMMTISCH_GC_FREEZE=0`` turns it off); an app built by other means (tests,
an own ASGI server) runs without it unless the variable is set.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time

ENV = "STAMMTISCH_GC_FREEZE"
THAW_ENV = "STAMMTISCH_GC_THAW"
#: ``stammtisch serve``'s default interval (seconds)
SERVE_DEFAULT = 10.0


def interval() -> float:
    """Seconds between freezes from ``STAMMTISCH_GC_FREEZE`` (0: off)."""
    try:
        return max(0.0, float(os.environ.get(ENV, "0") or 0))
    except ValueError:
        return 0.0


def thaw_interval(every: float) -> float:
    try:
        value = float(os.environ.get(THAW_ENV, "") or 60 * every)
    except ValueError:
        value = 60 * every
    return max(every, value)


async def freeze_loop(every: float, thaw_every: float) -> None:
    """Freeze the survivors every ``every`` s; thaw and collect fully every ``thaw_every``."""
    last_thaw = time.monotonic()
    while True:
        await asyncio.sleep(every)
        if time.monotonic() - last_thaw >= thaw_every:
            gc.unfreeze()
            gc.collect()
            last_thaw = time.monotonic()
        gc.collect(1)  # the young generations' garbage is not frozen
        gc.freeze()


def start() -> asyncio.Task[None] | None:
    """Start :func:`freeze_loop` on the running loop if ``STAMMTISCH_GC_FREEZE`` asks."""
    every = interval()
    if every <= 0:
        return None
    return asyncio.get_running_loop().create_task(freeze_loop(every, thaw_interval(every)))
