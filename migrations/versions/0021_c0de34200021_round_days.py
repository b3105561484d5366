"""round days: the event's day each round is played on (Day 1, Day 2…), which the policy's "day" window counts

Revision ID: c0de34200021
Revises: c0de34100019
Create Date: 2026-11-27 02:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de34200021'
down_revision = 'c0de34100019'
branch_labels = None
depends_on = None


def upgrade():
    # every round already played is on Day 1 until the head judge says otherwise
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('day', sa.Integer(), server_default='1', nullable=False))


def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('day')
