"""Opt-in timing of where a live table's server time goes (``STAMMTISCH_PERF``).

With ``STAMMTISCH_PERF=<file>`` in the server's environment, :func:`install` (called
before the app starts: ``stammtisch bench server`` then runs the server as ``python -c
"import stammtisch.server.perf as p; p.install(); from stammtisch.cli.main import app;
app()" serve …``) wraps, in place, the parts a client action passes through, and at
exit writes the CPU time of each part (the event loop thread's ``thread_time``, so other
processes on a busy machine do not inflate it) to ``<file>`` as JSON:

* ``action`` — :meth:`Referee.handle_action` as a whole (checks, engine, store,
  broadcast); ``engine`` — the game's ``apply_as``/``apply_out_of_turn`` (and the chance
  the server resolves, ``resolve_chance``);
* ``db`` — :meth:`Referee.save_game` (the record built, written and
  committed on the event loop); with the group-committing writer (``server/writer.py``)
  it only queues the save and waits, so its CPU and wall time then include whatever
  the loop ran meanwhile, and the write itself is ``db_thread`` (the worker thread's own
  CPU time, per batch);
  ``record`` — building the record alone (``live_record``);
* ``broadcast`` — :meth:`Broadcaster.broadcast` as a whole; inside it ``view`` (the
  engine's ``view(seat)`` per seat, ``view_for``), ``json`` (every ``_dumps``: table
  info, views), ``deflate`` (permessage-deflate, ``PerMessageDeflate.encode``) — the
  rest of the broadcast is building the table info and the websocket send (framing,
  the transport write);
* ``gc0``/``gc1``/``gc2`` — the garbage collector's collections per generation (their
  wall time; ``gc2_max``: the longest full collection, a pause of the whole server);
* ``SIGUSR1`` writes the figures so far and starts counting anew (``stammtisch bench
  server`` sends it at the start and at the end of its window, so the file then holds the
  window alone); without any, the figures are written at exit;
* ``ws_receive`` is not separable here: the server's CPU per action from the bench minus
  ``action`` is the websocket receive, JSON parsing of the client message and the
  event loop.

Without it nothing is wrapped: the normal server never imports this module (zero cost).
The figures are totals (``s``, CPU) and calls (``n``); ``per_action_us`` divides the CPU
time by the number of ``action`` calls, ``wall_per_action_us`` the wall-clock time (a
database write waiting for the disk shows there, not in the CPU time).
"""

from __future__ import annotations

import atexit
import functools
import gc
import inspect
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ENV = "STAMMTISCH_PERF"

#: section -> [CPU nanoseconds, calls, wall-clock nanoseconds]
totals: dict[str, list[int]] = {}
_installed = False


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    slot = totals.setdefault(name, [0, 0, 0])
    clock, wall = time.thread_time_ns, time.perf_counter_ns
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def awrapper(*args: Any, **kwargs: Any) -> Any:
            t0, w0 = clock(), wall()
            try:
                return await fn(*args, **kwargs)
            finally:
                slot[0] += clock() - t0
                slot[1] += 1
                slot[2] += wall() - w0

        return awrapper

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0, w0 = clock(), wall()
        try:
            return fn(*args, **kwargs)
        finally:
            slot[0] += clock() - t0
            slot[1] += 1
            slot[2] += wall() - w0

    return wrapper


def report() -> dict[str, Any]:
    """The totals so far: ``{section: {"s", "n", "per_action_us", "wall_per_action_us"}}``
    (CPU seconds, calls, CPU and wall-clock µs per ``action`` call; an async part's wall
    time includes what other tasks ran while it waited)."""
    actions = max(1, totals.get("action", [0, 0, 0])[1])
    return {name: ({"max_ms": round(wall_ns / 1e6, 1)} if name.endswith("_max") else
                   {"s": round(ns / 1e9, 4), "n": n,
                    "per_action_us": round(ns / 1e3 / actions, 1),
                    "wall_s": round(wall_ns / 1e9, 3),
                    "wall_per_action_us": round(wall_ns / 1e3 / actions, 1)})
            for name, (ns, n, wall_ns) in sorted(totals.items())}


def install() -> bool:
    """Wrap the timed parts if ``STAMMTISCH_PERF`` names a file; ``True`` if it did."""
    global _installed
    target = os.environ.get(ENV, "")
    if not target or _installed:
        return False
    _installed = True
    from stammtisch.games import registry
    from stammtisch.server import tables
    from stammtisch.server.live import records, referee, views

    parts: tuple[tuple[type, str, str], ...] = (
        (referee.Referee, "action", "handle_action"), (referee.Referee, "db", "save_game"),
        (records.TableRecords, "record", "live_record"),
        (views.Broadcaster, "broadcast", "broadcast"), (views.Broadcaster, "view", "view_for"))
    for part, name, attr in parts:
        setattr(part, attr, _timed(name, getattr(part, attr)))
    try:
        from stammtisch.server.writer import GameWriter
    except ImportError:
        pass
    else:  # the writer thread's own CPU time (thread_time is per thread)
        GameWriter._write = _timed("db_thread", GameWriter._write)  # type: ignore[method-assign]
    views._dumps = _timed("json", views._dumps)
    mgr = tables.TableManager
    mgr.resolve_chance = _timed("engine", mgr.resolve_chance)  # type: ignore[method-assign]
    seen: set[type] = set()
    for game in registry.names():
        desc = registry.get(game)
        try:
            cls = type(desc.new_state(desc.rules_class.preset(desc.default_preset), 0, None))
        except Exception:  # a game that cannot be built here is not timed
            continue
        if cls in seen:
            continue
        seen.add(cls)
        for attr in ("apply_as", "apply_out_of_turn"):
            if hasattr(cls, attr):
                setattr(cls, attr, _timed("engine", getattr(cls, attr)))
    try:
        from websockets.extensions.permessage_deflate import PerMessageDeflate
    except ImportError:
        pass
    else:
        PerMessageDeflate.encode = _timed(  # type: ignore[method-assign]
            "deflate", PerMessageDeflate.encode)

    gc_start: list[int] = [0]

    def gc_timing(phase: str, info: dict[str, Any]) -> None:
        # every collection's wall time, per generation (gc0, gc1, gc2); gc2 is a full
        # collection: it stops the event loop for as long as it takes
        if phase == "start":
            gc_start[0] = time.perf_counter_ns()
            return
        took = time.perf_counter_ns() - gc_start[0]
        slot = totals.setdefault(f"gc{info.get('generation', 0)}", [0, 0, 0])
        slot[1] += 1
        slot[2] += took
        big = totals.setdefault(f"gc{info.get('generation', 0)}_max", [0, 0, 0])
        big[2] = max(big[2], took)
        big[1] = 1

    gc.callbacks.append(gc_timing)
    snapshots: list[int] = []

    def write() -> None:
        Path(target).write_text(json.dumps(report(), indent=1))

    def snapshot(_signum: int, _frame: Any) -> None:
        # SIGUSR1: write what was timed since the last one, and start again (the bench
        # sends it at the start and the end of its measured window)
        write()
        snapshots.append(1)
        for slot in totals.values():
            slot[:] = [0, 0, 0]

    signal.signal(signal.SIGUSR1, snapshot)
    atexit.register(lambda: None if snapshots else write())
    return True
