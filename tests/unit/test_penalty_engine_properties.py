"""Properties of the penalty engine over generated histories (hypothesis)."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from judgeapp.infractions import Prior, PriorStatus, load_catalog, suggest
from judgeapp.infractions.engine import rule_applies
from tests.conftest import CATALOG
from tests.shared.engine_cases import RULES_CATALOG

CAT = load_catalog(CATALOG)
POLICIES = [
    p
    for p in [*CAT.policies.values(), *load_catalog(RULES_CATALOG).policies.values()]
    if any(i.defaults for i in p.infractions)
]


@st.composite
def situations(draw):
    policy = draw(st.sampled_from(POLICIES))
    inf = draw(st.sampled_from([i for i in policy.infractions if i.defaults is not None]))
    level = draw(st.sampled_from([lv.number for lv in policy.levels]))
    prior = draw(
        st.lists(
            st.builds(
                Prior,
                infraction_code=st.sampled_from([i.code for i in policy.infractions]),
                rank_id=st.sampled_from([r.id for r in policy.ranks]),
                status=st.sampled_from(list(PriorStatus)),
            ),
            max_size=6,
        )
    )
    return policy, inf, level, prior


@settings(max_examples=300, deadline=None)
@given(situations())
def test_suggestion_is_the_default_minimum_unless_a_rule_upgrades_it_from_enough_counted_priors_within_its_cap(case):
    policy, inf, level, prior = case
    s = suggest(policy, level, inf, prior)
    assert s.suggested in policy.ranks
    if not s.upgraded:
        assert s.suggested == s.default.min and s.because == () and s.rule is None
    else:
        assert s.suggested.order > s.default.min.order
        assert len(s.because) + 1 >= s.rule.from_count
        assert all(p.status is PriorStatus.STANDING for p in s.because)
        assert s.rule.cap is None or s.suggested.order <= max(s.rule.cap.order, s.default.min.order)


@settings(max_examples=300, deadline=None)
@given(situations(), st.data())
def test_suggestion_never_goes_down_when_history_grows(case, data):
    """Except under a rule that counts from the penalty actually given last time (`above: last_given`, Yu-Gi-Oh!):
    there a later, lighter penalty given (a downgrade) lowers the next suggestion by design; the shared engine cases
    R9 state that rule's answers one by one."""
    policy, inf, level, prior = case
    assume(not any(r.above_last_given and rule_applies(policy, r, inf, level) for r in policy.repeat_rules))
    more = data.draw(
        st.lists(
            st.builds(
                Prior,
                infraction_code=st.sampled_from([i.code for i in policy.infractions]),
                rank_id=st.sampled_from([r.id for r in policy.ranks]),
            ),
            max_size=3,
        )
    )
    assert (
        suggest(policy, level, inf, prior + more).suggested.order >= suggest(policy, level, inf, prior).suggested.order
    )
