"""Errors raised by services for the views to show next to a form field."""


class FieldError(ValueError):
    """Input that is well-formed but wrong in meaning; `field` names the form field to blame."""

    def __init__(self, field: str, message: str):
        self.field, self.message = field, message
        super().__init__(f"{field}: {message}")


def show_on_form(form, err: FieldError, session) -> None:
    """Undo the request's writes and put the service's message next to the field it blames."""
    session.rollback()
    field = getattr(form, err.field, None) or getattr(form, "submit", None)
    if field is None:
        form.form_errors.append(err.message)
    else:
        field.errors.append(err.message)
