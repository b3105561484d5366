"""judge calls: a player's call from a table's link, queued for the floor judges; events keep the secret their tables'
call links are signed with

Revision ID: c0de23000010
Revises: c0de20000009
Create Date: 2026-11-23 23:55:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de23000010'
down_revision = 'c0de20000009'
branch_labels = None
depends_on = None


def _enum(name, *values):
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=32)


def upgrade():
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('call_key', sa.String(length=64), nullable=True))

    op.create_table(
        'judge_calls',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('table_number', sa.Integer(), nullable=False),
        sa.Column('live_table', sa.Integer(), nullable=True),
        sa.Column('round_id', sa.Integer(), nullable=True),
        sa.Column('reason', _enum('callreason', 'rules_question', 'game_state', 'dispute', 'other'), nullable=False),
        sa.Column('note', sa.String(length=120), nullable=False),
        sa.Column('state', _enum('callstate', 'open', 'taken', 'escalated', 'closed'), nullable=False),
        sa.Column('raised_at', sa.DateTime(), nullable=False),
        sa.Column('taken_at', sa.DateTime(), nullable=True),
        sa.Column('taken_by_id', sa.Integer(), nullable=True),
        sa.Column('escalated_at', sa.DateTime(), nullable=True),
        sa.Column('escalated_by_id', sa.Integer(), nullable=True),
        sa.Column('closed_at', sa.DateTime(), nullable=True),
        sa.Column('closed_by_id', sa.Integer(), nullable=True),
        sa.Column('outcome', _enum('calloutcome', 'no_incident', 'incident', 'cancelled'), nullable=True),
        sa.Column('incident_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_judge_calls_event_id_events')),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], name=op.f('fk_judge_calls_round_id_rounds')),
        sa.ForeignKeyConstraint(['taken_by_id'], ['users.id'], name=op.f('fk_judge_calls_taken_by_id_users')),
        sa.ForeignKeyConstraint(['escalated_by_id'], ['users.id'],
                                name=op.f('fk_judge_calls_escalated_by_id_users')),
        sa.ForeignKeyConstraint(['closed_by_id'], ['users.id'], name=op.f('fk_judge_calls_closed_by_id_users')),
        sa.ForeignKeyConstraint(['incident_id'], ['incidents.id'], name=op.f('fk_judge_calls_incident_id_incidents')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_judge_calls')),
        sa.UniqueConstraint('event_id', 'number', name='uq_judge_calls_event_number'),
        sa.UniqueConstraint('event_id', 'live_table', name='uq_judge_calls_one_live_call_per_table'),
    )
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.create_index('ix_judge_calls_event_state', ['event_id', 'state'], unique=False)


def downgrade():
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.drop_index('ix_judge_calls_event_state')
    op.drop_table('judge_calls')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('call_key')
