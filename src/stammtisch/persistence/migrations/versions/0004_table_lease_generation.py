"""table lease generation: the fencing token of several workers

Revision ID: 0004
Revises: 0003

``game_tables.lease_gen`` (integer, 0 for every table so far).  With several workers
(``serve --workers N``, server/cluster.py) a worker that takes a table over raises it by
one (``Store.fence_table``) *before* it reads the table's records, and every write of a
table's owner (``Store.update_table``/``save_game``/``add_chat`` with ``gen=``) checks in
the same transaction that the generation is still the one it took the table with.  A
worker that lost the table (its lease ran out while it stalled) can then no longer
commit — and so never acknowledge — an action after the new owner has read the records.
One process without Redis never reads or writes the column.

A native ``ADD COLUMN … NOT NULL DEFAULT 0`` on both SQLite and PostgreSQL (no copy).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game_tables', sa.Column('lease_gen', sa.Integer(), nullable=False,
                                           server_default='0'))


def downgrade() -> None:
    # a native DROP COLUMN (SQLite >= 3.35): no table copy
    op.execute('ALTER TABLE game_tables DROP COLUMN lease_gen')
