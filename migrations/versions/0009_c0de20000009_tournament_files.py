"""tournament files: uploads kept as they came, pairings by round number (a file brings rounds not started yet, and
byes), replaced pairings kept; players carry the reading of their name, a country and other platforms' IDs

Revision ID: c0de20000009
Revises: c0de18000008
Create Date: 2026-11-23 21:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de20000009'
down_revision = 'c0de18000008'
branch_labels = None
depends_on = None

ACTIVE = sa.text('replaced_at IS NULL')


def upgrade():
    op.create_table(
        'tournament_imports',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('uploaded_by_id', sa.Integer(), nullable=False),
        sa.Column('uploaded_at', sa.DateTime(), nullable=False),
        sa.Column('filename', sa.String(length=255), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('content', sa.LargeBinary(), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=True),
        sa.Column('mapping', sa.JSON(), nullable=True),
        sa.Column('status', sa.Enum('pending', 'applied', 'discarded', name='importstate', native_enum=False,
                                    create_constraint=True, length=32), nullable=False),
        sa.Column('summary', sa.JSON(), nullable=True),
        sa.Column('settled_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_tournament_imports_event_id_events')),
        sa.ForeignKeyConstraint(['uploaded_by_id'], ['users.id'],
                                name=op.f('fk_tournament_imports_uploaded_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_imports')),
    )
    with op.batch_alter_table('tournament_imports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_imports_event_id'), ['event_id'], unique=False)

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reading', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('country', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('platform_ids', sa.JSON(), server_default=sa.text("'{}'"), nullable=False))

    # pairings: (round_id) -> (event_id, round_number), keeping every row
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('event_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('round_number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('import_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('replaced_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('replaced_by_import_id', sa.Integer(), nullable=True))
    op.execute('UPDATE pairings SET event_id = (SELECT rounds.event_id FROM rounds WHERE rounds.id = pairings.round_id), '
               'round_number = (SELECT rounds.number FROM rounds WHERE rounds.id = pairings.round_id)')
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.drop_index('ix_pairings_round_table')
        batch_op.drop_constraint('uq_pairings_round_player', type_='unique')
        batch_op.drop_constraint('fk_pairings_round_id_rounds', type_='foreignkey')
        batch_op.drop_column('round_id')
        batch_op.alter_column('event_id', existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column('round_number', existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column('table_number', existing_type=sa.Integer(), nullable=True)
        batch_op.create_foreign_key(batch_op.f('fk_pairings_event_id_events'), 'events', ['event_id'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_pairings_import_id_tournament_imports'), 'tournament_imports',
                                    ['import_id'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_pairings_replaced_by_import_id_tournament_imports'),
                                    'tournament_imports', ['replaced_by_import_id'], ['id'])
        batch_op.create_index('ix_pairings_event_round_table', ['event_id', 'round_number', 'table_number'])
        batch_op.create_index('ix_pairings_player', ['player_id'])
    op.create_index('uq_pairings_event_round_player', 'pairings', ['event_id', 'round_number', 'player_id'],
                    unique=True, sqlite_where=ACTIVE, postgresql_where=ACTIVE)


def downgrade():
    # The old schema knows only seats of started rounds: byes, replaced pairings and the pairings of rounds not
    # started yet have no place there and are dropped with this step down.
    op.drop_index('uq_pairings_event_round_player', table_name='pairings', sqlite_where=ACTIVE,
                  postgresql_where=ACTIVE)
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('round_id', sa.Integer(), nullable=True))
    op.execute('UPDATE pairings SET round_id = (SELECT rounds.id FROM rounds WHERE rounds.event_id = pairings.event_id '
               'AND rounds.number = pairings.round_number)')
    op.execute('DELETE FROM pairings WHERE round_id IS NULL OR table_number IS NULL OR replaced_at IS NOT NULL')
    with op.batch_alter_table('pairings', schema=None) as batch_op:
        batch_op.drop_index('ix_pairings_player')
        batch_op.drop_index('ix_pairings_event_round_table')
        batch_op.drop_constraint(batch_op.f('fk_pairings_replaced_by_import_id_tournament_imports'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_pairings_import_id_tournament_imports'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_pairings_event_id_events'), type_='foreignkey')
        batch_op.drop_column('replaced_by_import_id')
        batch_op.drop_column('replaced_at')
        batch_op.drop_column('import_id')
        batch_op.drop_column('round_number')
        batch_op.drop_column('event_id')
        batch_op.alter_column('round_id', existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column('table_number', existing_type=sa.Integer(), nullable=False)
        batch_op.create_foreign_key('fk_pairings_round_id_rounds', 'rounds', ['round_id'], ['id'])
        batch_op.create_unique_constraint('uq_pairings_round_player', ['round_id', 'player_id'])
        batch_op.create_index('ix_pairings_round_table', ['round_id', 'table_number'])
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('platform_ids')
        batch_op.drop_column('country')
        batch_op.drop_column('reading')
    with op.batch_alter_table('tournament_imports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_imports_event_id'))
    op.drop_table('tournament_imports')
