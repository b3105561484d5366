"""event policies: a policy file an organizer uploads for one event; incidents keep the engine's explanation

Revision ID: c0de19000011
Revises: c0de23000010
Create Date: 2026-11-24 21:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de19000011'
down_revision = 'c0de23000010'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'event_policies',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('policy_id', sa.String(length=64), nullable=False),
        sa.Column('version', sa.String(length=64), nullable=False),
        sa.Column('filename', sa.String(length=255), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('uploaded_by_id', sa.Integer(), nullable=False),
        sa.Column('uploaded_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_policies_event_id_events')),
        sa.ForeignKeyConstraint(['uploaded_by_id'], ['users.id'], name=op.f('fk_event_policies_uploaded_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_event_policies')),
    )
    with op.batch_alter_table('event_policies', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_event_policies_event_id'), ['event_id'], unique=False)
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('policy_sha', sa.String(length=64), nullable=True))
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('suggestion_explanation', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.drop_column('suggestion_explanation')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('policy_sha')
    with op.batch_alter_table('event_policies', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_event_policies_event_id'))
    op.drop_table('event_policies')
