"""game public ids: an opaque public id and a share token per game

Revision ID: 0003
Revises: 0002

Games were addressed by their sequential integer key (``/api/games/7``), so anyone could
walk through every game.  Now every game has ``public_id`` (``secrets.token_urlsafe(12)``,
96 random bits, used in every URL and API answer; the integer key stays internal) and
``share_token`` (``secrets.token_urlsafe(16)``, 128 bits: ``?share=`` opens a game of a
private table for whoever has the link).  Existing games get random tokens here.

SQLite cannot make an existing column NOT NULL without copying the table, and copying
``games`` under ``foreign_keys=ON`` would fire the ``ON DELETE CASCADE`` of
``game_players`` when the old table is dropped.  So on SQLite the columns are added
``NOT NULL DEFAULT ''`` (a native ``ADD COLUMN``, no copy) and filled at once; on
PostgreSQL they are added nullable, filled and then made NOT NULL.  Either way the
unique index on ``public_id`` is created after the fill.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

COLUMNS = {"public_id": 12, "share_token": 16}  # column: token_urlsafe bytes


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table('games', schema=None) as batch_op:
        for name in COLUMNS:
            if sqlite:
                batch_op.add_column(sa.Column(name, sa.String(length=32), nullable=False,
                                              server_default=''))
            else:
                batch_op.add_column(sa.Column(name, sa.String(length=32), nullable=True))

    games = sa.table('games', sa.column('id', sa.Integer()),
                     *(sa.column(name, sa.String()) for name in COLUMNS))
    conn = op.get_bind()
    ids = [row[0] for row in conn.execute(sa.select(games.c.id))]
    if ids:
        conn.execute(
            games.update().where(games.c.id == sa.bindparam('b_id'))
            .values({name: sa.bindparam(f'b_{name}') for name in COLUMNS}),
            [{'b_id': i, **{f'b_{name}': secrets.token_urlsafe(n)
                            for name, n in COLUMNS.items()}} for i in ids])

    if not sqlite:
        for name in COLUMNS:
            op.alter_column('games', name, existing_type=sa.String(length=32),
                            nullable=False)
    op.create_index('ix_games_public_id', 'games', ['public_id'], unique=True)


def downgrade() -> None:
    op.drop_index('ix_games_public_id', table_name='games')
    for name in COLUMNS:
        # a native DROP COLUMN (SQLite >= 3.35): no table copy, so no cascade on game_players
        op.execute(f'ALTER TABLE games DROP COLUMN {name}')
