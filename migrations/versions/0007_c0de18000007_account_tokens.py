"""account tokens: one-time, expiring invite and password-reset links (only their SHA-256 is stored)

Revision ID: c0de18000007
Revises: c0de18000006
Create Date: 2026-11-23 17:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de18000007'
down_revision = 'c0de18000006'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'account_tokens',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('purpose', sa.Enum('invite', 'reset', name='tokenpurpose', native_enum=False,
                                     create_constraint=True, length=32), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('used_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_account_tokens_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_account_tokens')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_account_tokens_token_hash')),
    )
    with op.batch_alter_table('account_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_account_tokens_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('account_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_tokens_user_id'))
    op.drop_table('account_tokens')
