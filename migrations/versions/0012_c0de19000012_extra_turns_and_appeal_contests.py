"""time extensions may give extra turns (Bushiroad Floor Rules 1.2.2, 4.2); an appeal says whether it contests the
penalty, the remedy or both (an opponent may contest only the remedy under Bushiroad Floor Rules 1.2.1)

Revision ID: c0de19000012
Revises: c0de19000011
Create Date: 2026-11-24 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de19000012'
down_revision = 'c0de19000011'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('time_extensions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('extra_turns', sa.Integer(), nullable=True))
    with op.batch_alter_table('appeals', schema=None) as batch_op:
        # appeals filed before this revision named no part: they stand for the whole ruling
        batch_op.add_column(sa.Column('contests', sa.String(length=16), server_default='both', nullable=False))


def downgrade():
    with op.batch_alter_table('appeals', schema=None) as batch_op:
        batch_op.drop_column('contests')
    with op.batch_alter_table('time_extensions', schema=None) as batch_op:
        batch_op.drop_column('extra_turns')
