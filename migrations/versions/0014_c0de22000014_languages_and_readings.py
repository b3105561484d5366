"""languages and readings: an account's language and the reading of its name, an event's language, a player's handle

Revision ID: c0de22000014
Revises: c0de23000013
Create Date: 2026-11-25 01:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de22000014'
down_revision = 'c0de23000013'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reading', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('locale', sa.String(length=16), nullable=True))
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=16), server_default='en', nullable=False))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('handle', sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('handle')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('language')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('locale')
        batch_op.drop_column('reading')
