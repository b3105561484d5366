"""jobs: heavy work run off the request by the job worker (imports, renders, mail), with progress and result

Revision ID: c0de32000015
Revises: c0de22000014
Create Date: 2026-11-26 19:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de32000015'
down_revision = 'c0de22000014'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'jobs',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=True),
        sa.Column('actor_id', sa.Integer(), nullable=True),
        sa.Column('subject', sa.String(length=64), nullable=True),
        sa.Column('state', sa.Enum('queued', 'running', 'done', 'failed', name='jobstate', native_enum=False,
                                   create_constraint=True, length=32), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.Column('counting', sa.String(length=32), nullable=False),
        sa.Column('done', sa.Integer(), server_default='0', nullable=False),
        sa.Column('total', sa.Integer(), nullable=True),
        sa.Column('counts', sa.JSON(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('worker', sa.String(length=128), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_jobs_event_id_events')),
        sa.ForeignKeyConstraint(['actor_id'], ['users.id'], name=op.f('fk_jobs_actor_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_jobs')),
    )
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.create_index('ix_jobs_event_kind_state', ['event_id', 'kind', 'state'], unique=False)
        batch_op.create_index('ix_jobs_subject', ['subject'], unique=False)
        batch_op.create_index('ix_jobs_state', ['state'], unique=False)


def downgrade():
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_index('ix_jobs_state')
        batch_op.drop_index('ix_jobs_subject')
        batch_op.drop_index('ix_jobs_event_kind_state')
    op.drop_table('jobs')
