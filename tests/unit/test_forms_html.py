"""judgeapp.forms.html_params writes every widget's attributes in place of WTForms' own (a form page's time went to
string.Formatter there): it must write exactly WTForms' bytes, for any attributes and for every field of every form."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
import wtforms.widgets.core
from flask_babel import lazy_gettext
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from judgeapp import create_app
from judgeapp.forms import WTFORMS_HTML_PARAMS, Form, html_params
from tests.conftest import app_config

TRICKY = [
    {"name": "table", "id": "table", "class_": "wide", "for_": "x"},
    {"data_user_id": "7", "aria_described_by": "table-error", "data_": "x"},
    {"checked": True, "readonly": False, "required": True, "disabled": False},
    {"value": 'say "hi" <b>&amp;</b> \u202e\x00'},
    {"value": Markup('<b class="x">it\'s</b>')},
    {"value": 3, "min": 0, "max": Decimal("2.50"), "step": None},
    {"title": lazy_gettext("Log out"), "placeholder": "テーブル"},
    {'on"click': "1", "<x>": "y"},
    {},
]

VALUES = st.one_of(
    st.text(),
    st.booleans(),
    st.integers(),
    st.none(),
    st.text().map(Markup),
    st.decimals(allow_nan=False, allow_infinity=False),
)


@pytest.mark.parametrize("attributes", TRICKY)
def test_the_attributes_are_written_as_wtforms_writes_them(app_with_babel, attributes):
    with app_with_babel.test_request_context():
        assert html_params(**attributes) == WTFORMS_HTML_PARAMS(**attributes)


@given(st.dictionaries(st.text(min_size=1), VALUES, max_size=8))
def test_any_attributes_and_values_are_written_as_wtforms_writes_them(attributes):
    assert html_params(**attributes) == WTFORMS_HTML_PARAMS(**attributes)


def test_every_widget_of_wtforms_writes_through_it():
    assert wtforms.widgets.core.html_params is html_params
    for widget in (wtforms.widgets.TextInput(), wtforms.widgets.NumberInput(), wtforms.widgets.SubmitInput()):
        assert widget.html_params is html_params
    assert wtforms.widgets.core.Button().html_params is html_params


def every_form() -> list[type[Form]]:
    found, todo = [], list(Form.__subclasses__())
    while todo:
        form = todo.pop()
        todo.extend(form.__subclasses__())
        found.append(form)
    return sorted(found, key=lambda f: f"{f.__module__}.{f.__qualname__}")


@pytest.fixture(scope="module")
def app_with_babel(tmp_path_factory):
    return create_app(app_config(Path(tmp_path_factory.mktemp("forms"))))


def rendered(form: Form) -> dict[str, str]:
    out = {}
    for field in form:
        try:
            out[field.name] = str(field(**{"data_x": 'a"b', "class_": "c"}))
        except (TypeError, ValueError) as err:  # a select whose choices its view sets: the same either way
            out[field.name] = f"refused: {type(err).__name__}"
    return out


def test_every_field_of_every_form_renders_the_same_bytes_with_either(app_with_babel, monkeypatch):
    forms = every_form()
    assert len(forms) > 30
    with app_with_babel.test_request_context():
        for form_class in forms:
            form = form_class(meta={"csrf": False})
            ours = rendered(form)
            with monkeypatch.context() as wtforms_own:
                wtforms_own.setattr(wtforms.widgets.core, "html_params", WTFORMS_HTML_PARAMS)
                wtforms_own.setattr(wtforms.widgets.core.Input, "html_params", staticmethod(WTFORMS_HTML_PARAMS))
                wtforms_own.setattr(wtforms.widgets.core.Button, "html_params", staticmethod(WTFORMS_HTML_PARAMS))
                theirs = rendered(form)
            assert ours == theirs, form_class
