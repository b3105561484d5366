"""The PostgreSQL pass empties the worker's one database between tests by TRUNCATE while its schema is the one
create_all built (tests/conftest.py `empty_postgres_database`): each test must still start as from drop_all and
create_all."""

from __future__ import annotations

import pytest
from sqlalchemy import func, inspect, select, text

from judgeapp.extensions import db
from judgeapp.models import User
from tests.conftest import TEST_DATABASE_URL, empty_postgres_database

pytestmark = [
    pytest.mark.db,
    pytest.mark.skipif(TEST_DATABASE_URL is None, reason="the reset between tests on PostgreSQL (SQLite: a new file)"),
]


def test_after_the_reset_every_table_is_empty_and_ids_count_from_one_again(app, make_user):
    first_id, _ = make_user("first@example.test", organizer=True)
    with app.app_context():
        empty_postgres_database()
        for table in db.metadata.sorted_tables:
            assert db.session.scalar(select(func.count()).select_from(table)) == 0, table.name
    again_id, _ = make_user("again@example.test")
    assert again_id == first_id
    with app.app_context():
        assert db.session.scalars(select(User.email)).all() == ["again@example.test"]


def test_a_column_a_test_added_is_gone_after_the_reset(app):
    with app.app_context():
        db.session.execute(text("ALTER TABLE users ADD COLUMN left_by_a_test integer"))
        db.session.commit()
        empty_postgres_database()
        columns = {column["name"] for column in inspect(db.engine).get_columns("users")}
    assert "left_by_a_test" not in columns


def test_a_table_a_test_dropped_is_there_again_after_the_reset(app, make_user):
    with app.app_context():
        db.session.execute(text("DROP TABLE audit_entries CASCADE"))
        db.session.commit()
        empty_postgres_database()
        assert "audit_entries" in inspect(db.engine).get_table_names()
    make_user("after@example.test")  # writes an audit entry: the table and its constraints are whole again


def test_an_index_a_test_dropped_is_there_again_after_the_reset(app):
    with app.app_context():
        name, table = db.session.execute(
            text(
                "SELECT indexname, tablename FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT IN "
                "(SELECT conname FROM pg_constraint) ORDER BY indexname LIMIT 1"
            )
        ).one()
        db.session.execute(text(f'DROP INDEX "{name}"'))
        db.session.commit()
        empty_postgres_database()
        assert name in {index["name"] for index in inspect(db.engine).get_indexes(table)}
