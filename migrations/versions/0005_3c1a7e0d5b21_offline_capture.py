"""incidents: logged_offline_at, phone_suggestion, suggestion_changed (offline capture from the phone's outbox)

Revision ID: 3c1a7e0d5b21
Revises: fb02fabd745a
Create Date: 2026-11-21 13:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3c1a7e0d5b21'
down_revision = 'fb02fabd745a'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('logged_offline_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('phone_suggestion', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('suggestion_changed', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.drop_column('suggestion_changed')
        batch_op.drop_column('phone_suggestion')
        batch_op.drop_column('logged_offline_at')
