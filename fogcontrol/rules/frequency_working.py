"""The working of an E4 frequency recommendation, in sentences (E1, E3, E4, E9).

``recommend_frequency`` (frequency.py) decides; this module says how, from what it decided. Kept
apart so that a caller that stores only the figures (the nightly sweep's state rows, issue 16) asks
for the verdict without its working (``worded=False``) and the decision is still made in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from fogcontrol.rules.explain import fmt_days, fmt_percent, say
from fogcontrol.rules.ruleset import Ruleset


def fmt_rate(rate: Decimal) -> str:
    """An E4 accumulation rate as the working says it: inches a day to four places."""
    return say("%(rate)s in/day", rate=rate.quantize(Decimal("0.0001")))


def recommendation_working(
    *,
    allowed: Sequence[int],
    total: Decimal,
    rate: Decimal | None,
    usable: int,
    projections: Sequence[tuple[int, Decimal]],
    enough: bool,
    default: int,
    longest_observed: int | None,
    longest: int | None,
    recommended: int,
    needs_more: bool,
    margin_days: int | None,
    ruleset: Ruleset,
) -> tuple[list[str], list[str]]:
    """The steps and the advice of ``recommend_frequency``'s verdict (E1, E3, E4, E9), from what
    it decided."""
    limit, factor = ruleset.fill_limit_ratio, ruleset.frequency_safety_factor
    steps = [
        say(
            "E1 allows these frequencies: %(allowed)s days. E3 limit: %(limit)s of the %(total)s in total depth.",
            allowed=", ".join(str(d) for d in allowed),
            limit=fmt_percent(limit),
            total=total,
        )
    ]
    if rate is not None:
        steps.append(
            say(
                "Average accumulation over time: %(rate)s, the mean of the rates of %(count)s observation(s) "
                "(FOG + solids / days since pump-out) (E4, E5).",
                rate=fmt_rate(rate),
                count=usable,
            )
        )
        steps.extend(
            say(
                "At %(days)s days: projected %(ratio)s full (within the limit).",
                days=days,
                ratio=fmt_percent(ratio),
            )
            if ratio <= limit
            else say(
                "At %(days)s days: projected %(ratio)s full (over the limit).",
                days=days,
                ratio=fmt_percent(ratio),
            )
            for days, ratio in projections
        )
    advice: list[str] = []
    if not enough:
        steps.append(
            say(
                "%(count)s usable observation(s); %(needed)s are needed to set a frequency from data (E4). "
                "The default applies: every %(default)s.",
                count=usable,
                needed=ruleset.min_observations_for_frequency,
                default=fmt_days(default),
            )
        )
        if rate is not None and rate * default / total > limit:
            steps.append(say("Warning: the readings so far suggest the default is too long; keep measuring."))
        return steps, advice
    steps.append(
        say(
            "Longest interval observed: %(observed)s; the data supports frequencies up to %(longest)s days "
            "(at most %(steps)s step(s) of the E1 list beyond what was observed).",
            observed=fmt_days(longest_observed),
            longest=longest,
            steps=ruleset.frequency_extrapolation_steps,
        )
    )
    if not needs_more:
        steps.append(
            say(
                "Recommended: every %(days)s, the longest supported frequency within the limit.",
                days=fmt_days(recommended),
            )
        )
    else:
        steps.append(
            say(
                "Even the shortest allowed frequency, %(days)s, overflows: it is recommended, and the device "
                "needs more frequent service than E1 allows (see E6, E8).",
                days=fmt_days(recommended),
            )
        )
    if not needs_more and margin_days != recommended:
        advice.append(
            say(
                "Advice, not a ground for any decision: with a safety margin of %(factor)s on the average "
                "rate, the longest frequency within the limit would be every %(days)s.",
                factor=factor,
                days=fmt_days(margin_days),
            )
            if margin_days
            else say(
                "Advice, not a ground for any decision: with a safety margin of %(factor)s on the average "
                "rate, the longest frequency within the limit would be shorter than any E1 allows.",
                factor=factor,
            )
        )
    return steps, advice
