"""tournaments: the tournament manager's documents and audit log

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tournaments',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('owner_user_id', sa.Integer(), nullable=True),
    sa.Column('document', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('table_token', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['owner_user_id'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournaments_owner_user_id'), ['owner_user_id'],
                              unique=False)

    op.create_table('tournament_audit',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.String(length=16), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('who', sa.String(length=80), nullable=False),
    sa.Column('command', sa.String(length=40), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('result_version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'seq')
    )
    with op.batch_alter_table('tournament_audit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_audit_tournament_id'),
                              ['tournament_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tournament_audit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_audit_tournament_id'))

    op.drop_table('tournament_audit')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournaments_owner_user_id'))

    op.drop_table('tournaments')
