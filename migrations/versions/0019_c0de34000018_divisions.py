"""divisions: an event's players, rounds and pairings belong to one of its divisions; a table seats one match per
round of a division

Revision ID: c0de34000018
Revises: c0de35000020
Create Date: 2026-11-26 22:40:00

Every existing event gets one division (named "", shown nowhere) holding all its players, rounds and pairings. A
live pairing at a table gets its seat (1, 2… in the order the pairings were written).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de34000018'
down_revision = 'c0de35000020'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'divisions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('starting_table', sa.Integer(), nullable=True),
        sa.Column('top_cut_from', sa.Integer(), nullable=True),
        sa.Column('top_cut_size', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_divisions_event_id_events')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_divisions')),
        sa.UniqueConstraint('event_id', 'name', name='uq_divisions_event_name'),
    )
    with op.batch_alter_table('divisions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_divisions_event_id'), ['event_id'], unique=False)
    op.execute(
        "INSERT INTO divisions (event_id, name, position, created_at) SELECT id, '', 0, CURRENT_TIMESTAMP FROM events"
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tables_across_divisions', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    first = "(SELECT d.id FROM divisions d WHERE d.event_id = {table}.event_id)"
    for table in ('players', 'rounds', 'pairings', 'judge_calls'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('division_id', sa.Integer(), nullable=True))
        op.execute(f"UPDATE {table} SET division_id = {first.format(table=table)}")
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat', sa.Integer(), server_default='1', nullable=False))
    op.execute(
        "UPDATE pairings SET seat = (SELECT count(*) FROM pairings p WHERE p.event_id = pairings.event_id"
        " AND p.round_number = pairings.round_number AND p.table_number = pairings.table_number"
        " AND p.replaced_at IS NULL AND p.id <= pairings.id)"
        " WHERE replaced_at IS NULL AND table_number IS NOT NULL"
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('division_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_players_division_id'), ['division_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_players_division_id_divisions'), 'divisions', ['division_id'],
                                    ['id'])
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.alter_column('division_id', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_constraint('uq_rounds_event_number', type_='unique')
        batch_op.create_unique_constraint('uq_rounds_division_number', ['division_id', 'number'])
        batch_op.create_index(batch_op.f('ix_rounds_division_id'), ['division_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_rounds_division_id_divisions'), 'divisions', ['division_id'],
                                    ['id'])
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.alter_column('division_id', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_constraint('uq_judge_calls_one_live_call_per_table', type_='unique')
        batch_op.create_unique_constraint('uq_judge_calls_one_live_call_per_table', ['division_id', 'live_table'])
        batch_op.create_foreign_key(batch_op.f('fk_judge_calls_division_id_divisions'), 'divisions', ['division_id'],
                                    ['id'])
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.alter_column('division_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_foreign_key(batch_op.f('fk_pairings_division_id_divisions'), 'divisions', ['division_id'],
                                    ['id'])
        batch_op.create_index('uq_pairings_division_round_table_seat',
                              ['division_id', 'round_number', 'table_number', 'seat'], unique=True,
                              sqlite_where=sa.text('replaced_at IS NULL AND table_number IS NOT NULL'),
                              postgresql_where=sa.text('replaced_at IS NULL AND table_number IS NOT NULL'))


def downgrade():
    """Back to one set of rounds per event: refused when an event has two divisions' rounds of one number."""
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.drop_index('uq_pairings_division_round_table_seat',
                            sqlite_where=sa.text('replaced_at IS NULL AND table_number IS NOT NULL'),
                            postgresql_where=sa.text('replaced_at IS NULL AND table_number IS NOT NULL'))
        batch_op.drop_constraint(batch_op.f('fk_pairings_division_id_divisions'), type_='foreignkey')
        batch_op.drop_column('seat')
        batch_op.drop_column('division_id')
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_judge_calls_division_id_divisions'), type_='foreignkey')
        batch_op.drop_constraint('uq_judge_calls_one_live_call_per_table', type_='unique')
        batch_op.create_unique_constraint('uq_judge_calls_one_live_call_per_table', ['event_id', 'live_table'])
        batch_op.drop_column('division_id')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_rounds_division_id_divisions'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_rounds_division_id'))
        batch_op.drop_constraint('uq_rounds_division_number', type_='unique')
        batch_op.create_unique_constraint('uq_rounds_event_number', ['event_id', 'number'])
        batch_op.drop_column('division_id')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_players_division_id_divisions'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_players_division_id'))
        batch_op.drop_column('division_id')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('tables_across_divisions')
    with op.batch_alter_table('divisions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_divisions_event_id'))
    op.drop_table('divisions')
