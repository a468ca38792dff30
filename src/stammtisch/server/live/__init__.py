"""One live table, split along its duties (the server is the referee).

- :mod:`.table` — the table's state (:class:`~.table.LiveTable`: what the table is, its
  seats, its match and game, the version clients see, its connections) and what it
  needs from the server that holds it (:class:`~.table.TableHost`);
- :mod:`.referee` — the fixed check order of a client's action (who, game over, turn,
  stale version, legal), then apply, persist, broadcast; games started, finished and
  stopped; the bots' moves and the turn timer running out;
- :mod:`.seats` and :mod:`.timers` — the seats, and their timers: the turn timer, the
  bots' delay, the next game's start, the release of a seat whose player stays away;
- :mod:`.port` — the store port, the one way a table reads and writes the database
  (several workers wrap it with their fence, ``server/workers/fencing.py``);
- :mod:`.records` — the live record of a game, and the match rebuilt from the records;
- :mod:`.views` — the broadcaster: each connection's own ``state`` message;
- :mod:`.bots`, :mod:`.hints` — the bots of the seats; a card suggestion;
- :mod:`.runtime` — :class:`~.runtime.TableRuntime`, which puts them together (plus the
  connections and the chat).

Whatever differs between the games comes from the game's plug-in
(``GamePlugin.table``, :mod:`stammtisch.games.base.table`): no module here knows a game.
"""
