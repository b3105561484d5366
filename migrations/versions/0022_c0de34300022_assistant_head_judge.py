"""assistant head judge: a staff role stored on assignments and invitations, and the assistant head judge who
confirmed an incident's recommended penalty; the judges who agreed to a disqualification decided by a number of
judges; the escalation offered when an incident was logged (issue 35)

Revision ID: c0de34300022
Revises: c0de34200021
Create Date: 2026-11-27 05:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de34300022'
down_revision = 'c0de34200021'
branch_labels = None
depends_on = None

OLD = ('head_judge', 'floor_judge', 'scorekeeper')
NEW = ('head_judge', 'assistant_head_judge', 'floor_judge', 'scorekeeper')
TABLES = ('staff_assignments', 'staff_invitations')


def _enum(values):
    return sa.Enum(*values, name='role', native_enum=False, create_constraint=True, length=32)


def _retype(table, old, new):
    """The role column's CHECK constraint names its values: drop it and make it again with the new list."""
    bind = op.get_bind()
    if bind.dialect.name == 'sqlite':  # batch mode rebuilds the table, with the metadata's naming convention
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint('role', type_='check')
            batch_op.alter_column('role', existing_type=_enum(old), type_=sa.String(length=32), existing_nullable=False)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_check_constraint('role', sa.column('role').in_(new))
        return
    # elsewhere the constraint keeps the name it was created with: find it by the column it checks
    found = [c['name'] for c in sa.inspect(bind).get_check_constraints(table) if 'role' in (c.get('sqltext') or '')]
    for existing in found:
        op.drop_constraint(op.f(existing), table, type_='check')
    values = ", ".join(f"'{v}'" for v in new)
    op.create_check_constraint(op.f(found[0] if found else f'ck_{table}_role'), table, f"role IN ({values})")


def upgrade():
    for table in TABLES:
        _retype(table, OLD, NEW)
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirmed_by_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('offered_rank_id', sa.String(length=64), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_incidents_confirmed_by_id_users'), 'users', ['confirmed_by_id'], ['id'])
    op.create_table(
        'disqualification_judges',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('incident_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['incident_id'], ['incidents.id'], name=op.f('fk_disqualification_judges_incident_id_incidents')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_disqualification_judges_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_disqualification_judges')),
        sa.UniqueConstraint('incident_id', 'user_id', name='uq_disqualification_judges_incident_user'),
    )
    with op.batch_alter_table('disqualification_judges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_disqualification_judges_incident_id'), ['incident_id'], unique=False)


def downgrade():
    with op.batch_alter_table('disqualification_judges', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_disqualification_judges_incident_id'))
    op.drop_table('disqualification_judges')
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_incidents_confirmed_by_id_users'), type_='foreignkey')
        batch_op.drop_column('confirmed_by_id')
        batch_op.drop_column('offered_rank_id')
    # an assistant head judge becomes a floor judge again: the role they held apart from confirming penalties
    for table in TABLES:
        op.execute(f"UPDATE {table} SET role = 'floor_judge' WHERE role = 'assistant_head_judge'")
        _retype(table, NEW, OLD)
