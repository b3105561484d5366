"""judge calls: the head judge's take of a call handed to them is kept beside the first take (who and when), which it
used to overwrite

Revision ID: c0de23000013
Revises: c0de19000012
Create Date: 2026-11-24 22:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de23000013'
down_revision = 'c0de19000012'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.add_column(sa.Column('head_taken_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('head_taken_by_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f('fk_judge_calls_head_taken_by_id_users'), 'users', ['head_taken_by_id'], ['id']
        )
    # A call taken after it was handed over: its taken_* are the head judge's take. The first take was the judge who
    # handed it over; when they took it is in the audit trail (else, at the latest, when they handed it over).
    op.execute(
        "UPDATE judge_calls SET head_taken_at = taken_at, head_taken_by_id = taken_by_id "
        "WHERE escalated_at IS NOT NULL AND taken_at IS NOT NULL AND taken_at >= escalated_at"
    )
    op.execute(
        "UPDATE judge_calls SET taken_by_id = escalated_by_id, taken_at = COALESCE(("
        "SELECT MIN(a.at) FROM audit_entries a WHERE a.object_type = 'JudgeCall' AND a.object_id = judge_calls.id "
        "AND a.action = 'take_call' AND a.actor_id = judge_calls.escalated_by_id AND a.at <= judge_calls.escalated_at"
        "), escalated_at) WHERE head_taken_by_id IS NOT NULL"
    )


def downgrade():
    # The schema before: one take, the latest.
    op.execute(
        "UPDATE judge_calls SET taken_at = head_taken_at, taken_by_id = head_taken_by_id "
        "WHERE head_taken_by_id IS NOT NULL"
    )
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_judge_calls_head_taken_by_id_users'), type_='foreignkey')
        batch_op.drop_column('head_taken_by_id')
        batch_op.drop_column('head_taken_at')
