"""The quick reference renders the Pokémon and Lorcana policies at their levels, with the texts' ranks and rules."""

import pytest


@pytest.mark.parametrize(
    "level, name",
    [
        (1, "Below Regional Championships"),
        (2, "Regional Championships and above"),
    ],
)
def test_quick_reference_shows_the_pokemon_tcg_rows_with_prize_card_penalties_at_each_level(
    client, make_user, login_as, level, name
):
    _, email = make_user()
    login_as(email)
    page = client.get(f"/reference/pokemon?level={level}").get_data(as_text=True)
    assert "Play! Pokémon Penalty Guidelines" in page and "16 of 16 infractions" in page
    assert f'<option value="{level}" selected>{name}</option>' in page
    assert "Gameplay Error — Major" in page and "Double Prize Card Penalty" in page  # 5.5.1
    assert "Quadruple Prize Card Penalty" in page  # 5.5.1.1: an alternative from Double Prize Card to Game Loss


def test_quick_reference_marks_a_may_escalate_rule_as_the_judges_call_not_an_upgrade_4_2_2(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    page = client.get("/reference/pokemon?level=1").get_data(as_text=True)
    assert "Repeats: upgraded under" not in page
    assert page.count("Repeats: the judge may escalate under") == 15  # every row but Cheating (5.4)
    assert "4.2.2 (repeated infraction)</a>, never by itself." in page


@pytest.mark.parametrize("level, name", [(1, "Entry-level"), (2, "Competitive"), (3, "Premier Play")])
def test_quick_reference_shows_the_lorcana_guidelines_at_the_tournament_rules_levels(
    client, make_user, login_as, level, name
):
    _, email = make_user()
    login_as(email)
    page = client.get(f"/reference/lorcana?level={level}").get_data(as_text=True)
    assert "Disney Lorcana TCG Play Correction Guidelines" in page and "18 of 18 infractions" in page
    assert f'<option value="{level}" selected>{name}</option>' in page
    assert "Deck/Registration Error – Major" in page and "Wagering" in page
    assert "(2)" in page and "(3)" in page and "(4)" in page  # the three section-head upgrades
