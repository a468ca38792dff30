"""Several workers (processes, machines) sharing one PostgreSQL and one Redis.

Switched on by ``Settings.redis_url`` (``stammtisch serve --redis URL``); without it the
server is the single process of :mod:`stammtisch.server.tables`, unchanged.

* **Leases.**  Each live table is owned by one worker at a time: the Redis key
  ``stammtisch:lease:<table>`` holds the owner's worker id, set with ``SET NX PX ttl``
  (``Settings.lease_ttl``, 3 s).  The owner renews all its leases every ttl/3 with a
  compare-and-renew Lua script (``pexpire`` only if the value is still its own id); a
  renewal that finds another id (or none) drops the table.
* **Fencing** (in the database, not in Redis: a lease can run out while its worker stalls,
  and only the database can tell a late write from a current one).  Each table row has a
  lease generation (``game_tables.lease_gen``, migration 0004).  A worker that takes a
  table over first raises it (``Store.fence_table``, which waits for a write of the former
  owner still in flight) and only then reads the table's row and records; every write of
  the owner (all of a table's go through its store port, and :mod:`.fencing` wraps the
  port, so none can miss the fence; and the group-committing writer's batches) checks in
  its own transaction that the generation is still the one it took the table with.  A
  write that finds a newer one is not made (:class:`~.common.LeaseLost`), the worker
  drops the table (timers stopped, its sockets closed with
  1012 so the clients reconnect) and never writes it again.  So whatever the old owner
  committed — and so acknowledged — before the takeover is in what the new owner reads,
  and nothing after it is committed: no acknowledged action is lost, however long a
  worker stalls, and whatever happens to the keys in Redis.
* **Takeover.**  Every worker keeps the ids of the live tables in the Redis set
  ``stammtisch:tables`` (seeded from the database at start and every
  ``RESEED_SECONDS``) and looks every ``SCAN_SECONDS`` for tables without a lease; it
  takes such a table (``SET NX``) and rebuilds it from its stored records (the restore
  path of a restarted server, ``TableManager.adopt``).  A worker killed with -9 thus
  loses its tables for at most ttl + ``SCAN_SECONDS`` + the restore.
* **Relay.**  A websocket or a REST call (``/api/tables/<id>`` and its ``join``,
  ``leave``, ``bots``) may land on any worker.  If the table has no owner, that worker
  takes it; if another worker owns it, the request goes to the owner through Redis
  pub/sub: every worker listens on its own channel ``stammtisch:worker:<id>``.  A relayed
  websocket is a ``Connection`` at the owner whose ``send``
  publishes to the relaying worker with the connection's id, so each seat's state message
  goes only to that seat's connections (the per-seat views never meet another seat's
  socket).  A REST call is replayed inside the owner's own app (ASGI) and its answer
  published back.  The relaying worker watches the leases of all tables it relays for
  (one ``MGET`` every ttl/3, ``SocketRelay.watch_loop``) and closes the client's socket
  (1012, the client reconnects) when the owner changes.
* **Lobby.**  Each owner writes the lobby entries of its public tables into the Redis hash
  ``stammtisch:lobby`` and announces changes on the channel ``stammtisch:lobby``; every
  worker answers ``GET /api/tables`` and its lobby sockets from that hash.

Redis is used as a key-value store with expiry and as pub/sub — no broker, discovery or
consensus of our own.  Online tournament rounds still run per worker (see docs/server.md).

The parts: :mod:`.common` (keys, timings, close codes, ``LeaseLost``, the message bus),
:mod:`.leases`, :mod:`.fencing` (the fenced store port), :mod:`.manager` (the worker's
``ClusterTableManager``), :mod:`.lobby` (the shared lobby), :mod:`.sockets` and
:mod:`.rest` (the relay), :mod:`.worker` (``Cluster``, which puts them together, and
the ``ClusterRouter`` middleware).  ``serve --workers N`` builds each worker's app with
``stammtisch.server.cluster:app_from_env``.
"""
from stammtisch.server.workers.common import LeaseLost, check_redis, unreachable
from stammtisch.server.workers.worker import Cluster, ClusterRouter

__all__ = ["Cluster", "ClusterRouter", "LeaseLost", "check_redis", "unreachable"]
