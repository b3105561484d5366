"""incidents.minutes_late: how late the player was, for defaults by minutes late (issue 35)

Revision ID: c0de35000020
Revises: c0de32000017
Create Date: 2026-11-26 23:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de35000020'
down_revision = 'c0de32000017'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('incidents') as batch_op:
        batch_op.add_column(sa.Column('minutes_late', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('incidents') as batch_op:
        batch_op.drop_column('minutes_late')
