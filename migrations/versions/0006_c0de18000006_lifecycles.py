"""lifecycles: rounds end (early, or with what is still open), investigations can be withdrawn, deck checks can end
unfinished with their round, incidents keep when the head judge last ruled on them

Revision ID: c0de18000006
Revises: 3c1a7e0d5b21
Create Date: 2026-11-23 16:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de18000006'
down_revision = '3c1a7e0d5b21'
branch_labels = None
depends_on = None

INVESTIGATION_OLD = ('open', 'finalized', 'declined')
INVESTIGATION_NEW = INVESTIGATION_OLD + ('withdrawn',)
DECK_CHECK_OLD = ('in_progress', 'matches', 'problems')
DECK_CHECK_NEW = DECK_CHECK_OLD + ('unfinished',)


def _enum(values, name):
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=32)


def _retype(table, column, name, old, new):
    """A non-native enum's CHECK constraint names its values: drop it and make it again with the new list."""
    bind = op.get_bind()
    if bind.dialect.name == 'sqlite':  # batch mode rebuilds the table, with the metadata's naming convention
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(name, type_='check')
            batch_op.alter_column(column, existing_type=_enum(old, name), type_=sa.String(length=32),
                                  existing_nullable=False)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_check_constraint(name, sa.column(column).in_(new))
        return
    # elsewhere the constraint keeps the name it was created with: find it by the column it checks
    found = [c['name'] for c in sa.inspect(bind).get_check_constraints(table) if column in (c.get('sqltext') or '')]
    for existing in found:
        op.drop_constraint(op.f(existing), table, type_='check')
    values = ", ".join(f"'{v}'" for v in new)
    op.create_check_constraint(op.f(found[0] if found else f'ck_{table}_{name}'), table, f"{column} IN ({values})")


def upgrade():
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('head_judge_decided_at', sa.DateTime(), nullable=True))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ended_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('ended_by_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_rounds_ended_by_id_users'), 'users', ['ended_by_id'], ['id'])
    with op.batch_alter_table('investigations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('withdrawn_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('withdrawn_reason', sa.Text(), nullable=True))
    _retype('investigations', 'status', 'investigationstatus', INVESTIGATION_OLD, INVESTIGATION_NEW)
    _retype('deck_checks', 'result', 'deckcheckresult', DECK_CHECK_OLD, DECK_CHECK_NEW)


def downgrade():
    op.execute("UPDATE investigations SET status = 'finalized' WHERE status = 'withdrawn'")
    op.execute("UPDATE deck_checks SET result = 'problems' WHERE result = 'unfinished'")
    _retype('deck_checks', 'result', 'deckcheckresult', DECK_CHECK_NEW, DECK_CHECK_OLD)
    _retype('investigations', 'status', 'investigationstatus', INVESTIGATION_NEW, INVESTIGATION_OLD)
    with op.batch_alter_table('investigations', schema=None) as batch_op:
        batch_op.drop_column('withdrawn_reason')
        batch_op.drop_column('withdrawn_at')
    with op.batch_alter_table('incidents', schema=None) as batch_op:
        batch_op.drop_column('head_judge_decided_at')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_rounds_ended_by_id_users'), type_='foreignkey')
        batch_op.drop_column('ended_by_id')
        batch_op.drop_column('ended_at')
