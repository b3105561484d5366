"""an incident's game of the round's match, asked where a policy counts per game (FaB PPG 3.3), and the earlier
incident of the same player and round it shares its cause with, where a policy gives one penalty for related errors
(Magic IPG 1.2) (issue 35)

Revision ID: c0de34400023
Revises: c0de34300022
Create Date: 2026-11-27 08:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de34400023'
down_revision = 'c0de34300022'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('related_to_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f('fk_incidents_related_to_id_incidents'), 'incidents', ['related_to_id'], ['id']
        )


def downgrade():
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_incidents_related_to_id_incidents'), type_='foreignkey')
        batch_op.drop_column('related_to_id')
        batch_op.drop_column('game_number')
