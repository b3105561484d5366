"""The test processes' shared compiled templates (tests/conftest.py, Jinja's bytecode cache in memory): an app renders
what its own environment would have compiled, whatever another app compiled before it."""

from flask import Flask, render_template
from jinja2 import pass_context


def render(folder, name: str, filters: dict | None = None, **values) -> str:
    app = Flask(__name__, template_folder=str(folder))
    app.jinja_env.filters.update(filters or {})
    with app.app_context():
        return render_template(name, **values)


def test_a_template_whose_source_changed_is_compiled_anew_by_the_next_app(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<p>{{ text }}</p>")
    assert render(tmp_path, "page.html", text="<b>") == "<p>&lt;b&gt;</p>"
    assert render(tmp_path, "page.html", text="again") == "<p>again</p>"
    page.write_text("<div>{{ text }}</div>")
    assert render(tmp_path, "page.html", text="changed") == "<div>changed</div>"


def test_an_app_whose_filter_takes_the_context_gets_code_compiled_for_it(tmp_path):
    (tmp_path / "filtered.html").write_text("{{ 'x' | mark }}")

    def plain(value):
        return f"plain {value}"

    @pass_context
    def with_context(context, value):
        return f"context {value} {context['who']}"

    assert render(tmp_path, "filtered.html", {"mark": plain}, who="a") == "plain x"
    assert render(tmp_path, "filtered.html", {"mark": with_context}, who="b") == "context x b"
