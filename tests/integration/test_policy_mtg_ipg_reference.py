"""The quick reference renders the Magic IPG (policy mtg-ipg) at both of its levels."""

import pytest


@pytest.mark.parametrize("level, name", [(1, "Competitive REL"), (2, "Professional REL")])
def test_quick_reference_shows_the_mtg_ipg_with_its_rules_at_each_level(client, make_user, login_as, level, name):
    _, email = make_user()
    login_as(email)
    response = client.get(f"/reference/mtg-ipg?level={level}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Magic Infraction Procedure Guide" in page and "23 of 23 infractions" in page
    assert f'<option value="{level}" selected>{name}</option>' in page
    assert "Game Rule Violation" in page and "Unsporting Conduct — Major" in page
    assert "No penalty" in page  # 2.1 Missed Trigger
    assert "(IPG 2, introduction)" in page and "(IPG 4.2)" in page  # the repeat rules with their sections
