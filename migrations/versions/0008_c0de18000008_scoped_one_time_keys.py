"""one-time keys scoped to their event and record kind: unique (event_id, client_key) per table, and
(investigation_id, client_key) for statements, instead of a key unique across every event

Revision ID: c0de18000008
Revises: c0de18000007
Create Date: 2026-11-24 10:00:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'c0de18000008'
down_revision = 'c0de18000007'
branch_labels = None
depends_on = None

SCOPES = (('incidents', 'event_id'), ('deck_checks', 'event_id'), ('time_extensions', 'event_id'),
          ('appeals', 'event_id'), ('statements', 'investigation_id'))


def _scoped_name(table, scope):
    return f"uq_{table}_{scope.removesuffix('_id')}_client_key"


def upgrade():
    for table, scope in SCOPES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f'uq_{table}_client_key', type_='unique')
            batch_op.create_unique_constraint(_scoped_name(table, scope), [scope, 'client_key'])


def downgrade():
    for table, scope in reversed(SCOPES):
        # The same key may now be stored at two events: the later records get a key of their own (a key only
        # matters while its form may be resent), so the global constraint can come back.
        op.execute(f"UPDATE {table} SET client_key = substr(client_key, 1, 40) || ':moved:' || id "
                   f"WHERE id NOT IN (SELECT min(id) FROM {table} GROUP BY client_key)")
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(_scoped_name(table, scope), type_='unique')
            batch_op.create_unique_constraint(f'uq_{table}_client_key', ['client_key'])
