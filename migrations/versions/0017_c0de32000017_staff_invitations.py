"""staff invitations: an added account accepts (or declines) a role before it counts

Revision ID: c0de32000017
Revises: c0de32000015
Create Date: 2026-11-26 19:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de32000017'
down_revision = 'c0de32200016'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'staff_invitations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('invited_by_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('role', sa.Enum('head_judge', 'floor_judge', 'scorekeeper', name='role', native_enum=False,
                                  create_constraint=True, length=32), nullable=False),
        sa.Column('status', sa.Enum('invited', 'accepted', 'declined', name='invitationstatus', native_enum=False,
                                    create_constraint=True, length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('answered_at', sa.DateTime(), nullable=True),
        sa.Column('assignment_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['assignment_id'], ['staff_assignments.id'],
                                name=op.f('fk_staff_invitations_assignment_id_staff_assignments')),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_staff_invitations_event_id_events')),
        sa.ForeignKeyConstraint(['invited_by_id'], ['users.id'],
                                name=op.f('fk_staff_invitations_invited_by_id_users')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_staff_invitations_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_staff_invitations')),
    )
    with op.batch_alter_table('staff_invitations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_staff_invitations_event_id'), ['event_id'], unique=False)
        batch_op.create_index('ix_staff_invitations_user_status', ['user_id', 'status'], unique=False)


def downgrade():
    with op.batch_alter_table('staff_invitations', schema=None) as batch_op:
        batch_op.drop_index('ix_staff_invitations_user_status')
        batch_op.drop_index(batch_op.f('ix_staff_invitations_event_id'))
    op.drop_table('staff_invitations')
