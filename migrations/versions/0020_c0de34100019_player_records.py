"""player records: the search text and list order of the players page, and a record merged into another

Revision ID: c0de34100019
Revises: c0de34000018
Create Date: 2026-11-26 23:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de34100019'
down_revision = 'c0de34000018'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('search_key', sa.String(length=800), nullable=True))
        batch_op.add_column(sa.Column('list_key', sa.String(length=800), nullable=True))
        batch_op.add_column(sa.Column('merged_into_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('merged_at', sa.DateTime(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_players_merged_into_id_players'), 'players', ['merged_into_id'],
                                    ['id'])
        batch_op.create_index('ix_players_event_merged_name', ['event_id', 'merged_into_id', 'name'], unique=False)
        batch_op.create_index('ix_players_event_merged_list_key', ['event_id', 'merged_into_id', 'list_key'],
                              unique=False)
    _fill_keys()


def _fill_keys():
    """The players already there get their search text and list order, as judgeapp writes them for new ones."""
    from judgeapp.names import list_key, search_text

    bind = op.get_bind()
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String),
                       sa.column('reading', sa.String), sa.column('handle', sa.String),
                       sa.column('player_code', sa.String), sa.column('search_key', sa.String),
                       sa.column('list_key', sa.String))
    last = 0
    while True:
        rows = bind.execute(
            sa.select(players.c.id, players.c.name, players.c.reading, players.c.handle, players.c.player_code)
            .where(players.c.id > last).order_by(players.c.id).limit(5000)
        ).all()
        if not rows:
            return
        bind.execute(
            players.update().where(players.c.id == sa.bindparam('pid')).values(
                search_key=sa.bindparam('skey'), list_key=sa.bindparam('lkey')
            ),
            [
                {'pid': pid, 'skey': search_text(name, reading, handle, code)[:800],
                 'lkey': list_key(name, reading)[:800]}
                for pid, name, reading, handle, code in rows
            ],
        )
        last = rows[-1][0]


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index('ix_players_event_merged_list_key')
        batch_op.drop_index('ix_players_event_merged_name')
        batch_op.drop_constraint(batch_op.f('fk_players_merged_into_id_players'), type_='foreignkey')
        batch_op.drop_column('merged_at')
        batch_op.drop_column('merged_into_id')
        batch_op.drop_column('list_key')
        batch_op.drop_column('search_key')
