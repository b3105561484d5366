"""Properties of the penalty engine over generated histories (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from judgeapp.infractions import Prior, PriorStatus, load_catalog, suggest
from tests.conftest import CATALOG

CAT = load_catalog(CATALOG)
POLICIES = [p for p in CAT.policies.values() if any(i.defaults for i in p.infractions)]


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
def test_suggestion_is_a_rank_of_the_policy_never_below_the_default_minimum(case):
    policy, inf, level, prior = case
    s = suggest(policy, level, inf, prior)
    assert s.suggested in policy.ranks
    assert s.suggested.order >= s.default.min.order
    assert s.suggested.order <= s.default.min.order + 1


@settings(max_examples=300, deadline=None)
@given(situations(), st.data())
def test_suggestion_never_goes_down_when_history_grows(case, data):
    policy, inf, level, prior = case
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
