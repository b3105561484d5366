"""job files: what a render job made (the QR sheet, a report PDF), kept for its download

Revision ID: c0de32200016
Revises: c0de32000015
Create Date: 2026-11-26 19:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c0de32200016'
down_revision = 'c0de32000015'  # the jobs table (branch i32-jobs): a job file belongs to a job
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'job_files',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('job_id', sa.Integer(), nullable=False),
        sa.Column('filename', sa.String(length=200), nullable=False),
        sa.Column('mimetype', sa.String(length=64), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('released_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['job_id'], ['jobs.id'], name=op.f('fk_job_files_job_id_jobs')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_job_files')),
        sa.UniqueConstraint('job_id', name=op.f('uq_job_files_job_id')),
    )


def downgrade():
    op.drop_table('job_files')
