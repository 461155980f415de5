"""Service frequency from accumulation data: the average, the recommendation, owner requests and the
trap that needs an interceptor (E1-E5, E8, E9).

Every finding here is the chapter's own test: the AVERAGE FOG accumulation over time (E4, E5),
projected to an interval, against the E3 limit. The ruleset's ``frequency_safety_factor`` is a
margin for advice only: it is reported beside a finding (``advice``), never inside it, and it is
never a ground for a recommendation, a refusal (E5) or a requirement (E8).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from decimal import Decimal

from fogcontrol.rules.devices import (
    HYDROMECHANICAL_INTERCEPTOR,
    Observation,
    ObservationLike,
    check_kind,
    default_frequency,
    fill_ratio,
    observations_of,
    to_decimal,
)
from fogcontrol.rules.explain import Explanation, explain, fmt_days, fmt_percent
from fogcontrol.rules.ruleset import Ruleset


def _rate(observation: Observation) -> Decimal:
    return (observation.fog_depth_in + observation.solids_depth_in) / observation.days_since_pumpout


def accumulation_rate(observations: Iterable[ObservationLike]) -> Decimal | None:
    """E4 / E5: the average FOG accumulation over time, inches of FOG + solids per day.

    Each observation gives a rate through the origin (a full pump-out leaves the device empty):
    (FOG + solids) / days since pump-out. The result is the AVERAGE (arithmetic mean) of those
    rates, as E5 ("based on the average FOG accumulation over time") and E4 ("an average
    frequency") say. Observations at day 0 or before are ignored. None when none can be used.
    """
    rates = [_rate(o) for o in observations_of(observations) if o.days_since_pumpout > 0]
    return sum(rates, Decimal(0)) / len(rates) if rates else None


def intervals_observed(observations: Sequence[Observation]) -> int:
    """E8: how many service intervals the usable observations cover. Observations that count from
    the same pump-out (``since``) lie in one interval; one without a date is its own interval."""
    dated = {o.since for o in observations if o.since is not None}
    return len(dated) + sum(1 for o in observations if o.since is None)


def _fmt_rate(rate: Decimal) -> str:
    return f"{rate.quantize(Decimal('0.0001'))} in/day"


@dataclasses.dataclass(frozen=True)
class FrequencyRecommendation:
    """A frequency set from accumulation data (E1, E3, E4, E9).

    ``projected_fill_by_frequency`` holds (days, projected fill ratio) for every allowed frequency,
    from the average rate; a frequency fits when the ratio is within ``fill_limit`` (E3).
    ``longest_supported_days`` is the longest frequency the data can support (see
    ``recommend_frequency``). ``safety_factor`` and ``margin_frequency_days`` are ADVICE: the
    longest frequency that would still fit if the device filled ``safety_factor`` times faster;
    ``advice`` says so in words. Neither enters the recommendation or its explanation.
    """

    recommended_frequency_days: int
    fill_ratio_last: Decimal | None
    rate_in_per_day: Decimal | None
    projected_fill_by_frequency: tuple[tuple[int, Decimal], ...]
    enough_data: bool
    needs_more_frequent_than_allowed: bool
    safety_factor: Decimal
    fill_limit: Decimal
    longest_supported_days: int | None
    observations_used: int
    explanation: Explanation
    total_depth_in: Decimal = Decimal(0)
    intervals_observed: int = 0
    longest_observed_days: int | None = None
    margin_frequency_days: int | None = None
    advice: tuple[str, ...] = ()

    def projected_fill_at(self, days: int) -> Decimal | None:
        """E3: the average rate projected to ``days`` as a share of the total depth (None without data)."""
        if self.rate_in_per_day is None or not self.total_depth_in:
            return None
        return self.rate_in_per_day * days / self.total_depth_in


def longest_supported_frequency(longest_observed_days: int, ruleset: Ruleset) -> int:
    """E4: the FOG Manager's recommendation is "never longer than the data supports".

    The longest allowed frequency at or below the longest observed pump-out interval, plus
    ``frequency_extrapolation_steps`` steps of the E1 list (capped at the longest allowed). With
    the defaults: observed 90 days -> up to 120; observed 45 days -> up to 60; observed 20 -> 30.
    A program setting for the recommendation, not a test of E5 (an owner's request is judged on
    the projection itself; reaching beyond the data is advice there).
    """
    allowed = sorted(ruleset.allowed_frequencies_days)
    within = [index for index, days in enumerate(allowed) if days <= longest_observed_days]
    base = within[-1] if within else -1
    index = min(max(base + ruleset.frequency_extrapolation_steps, 0), len(allowed) - 1)
    return allowed[index]


def margin_advice(rate: Decimal, days: int, total: Decimal, ruleset: Ruleset) -> str | None:
    """Advice, not a finding: the projection at ``days`` with the ruleset's safety margin, when the
    margin would take it over the E3 limit. None when it stays within."""
    factor, limit = ruleset.frequency_safety_factor, ruleset.fill_limit_ratio
    with_margin = rate * days / total * factor
    if with_margin <= limit:
        return None
    return (
        f"Advice, not a ground for any decision: if the device filled {factor} times faster than its "
        f"average, {fmt_days(days)} would reach {fmt_percent(with_margin)} of its depth, over the "
        f"{fmt_percent(limit)} limit. A sludge-height reading during the first interval at this "
        "frequency would confirm the average."
    )


def recommend_frequency(
    *,
    kind: str,
    total_depth_in: Decimal | int | str,
    observations: Iterable[ObservationLike],
    ruleset: Ruleset,
) -> FrequencyRecommendation:
    """E1 / E3 / E4 / E9: the LONGEST allowed frequency whose projected fill, from the average
    accumulation rate, stays within the E3 limit.

    Until ``min_observations_for_frequency`` usable observations exist, the default frequency
    (E2 / E4: quarterly for interceptors) is recommended and ``enough_data`` is False. The
    recommendation is never longer than ``longest_supported_frequency``. If even the shortest
    allowed frequency overflows, the shortest is recommended and
    ``needs_more_frequent_than_allowed`` is True. The safety margin is only advice (see the class).
    """
    check_kind(kind)
    total = to_decimal(total_depth_in, "total_depth_in")
    items = observations_of(observations)
    for item in items:
        fill_ratio(item.fog_depth_in, item.solids_depth_in, total)  # validates every reading
    usable = [o for o in items if o.days_since_pumpout > 0]
    allowed = tuple(sorted(ruleset.allowed_frequencies_days))
    limit, factor = ruleset.fill_limit_ratio, ruleset.frequency_safety_factor
    rate = accumulation_rate(usable)
    last = items[-1] if items else None
    last_ratio = fill_ratio(last.fog_depth_in, last.solids_depth_in, total) if last else None
    default = default_frequency(kind, ruleset)
    enough = len(usable) >= ruleset.min_observations_for_frequency
    longest_observed = max((o.days_since_pumpout for o in usable), default=None)
    steps = [
        f"E1 allows these frequencies: {', '.join(str(d) for d in allowed)} days. "
        f"E3 limit: {fmt_percent(limit)} of the {total} in total depth."
    ]
    projections: tuple[tuple[int, Decimal], ...] = ()
    if rate is not None:
        projections = tuple((days, rate * days / total) for days in allowed)
        steps.append(
            f"Average accumulation over time: {_fmt_rate(rate)}, the mean of the rates of "
            f"{len(usable)} observation(s) (FOG + solids / days since pump-out) (E4, E5)."
        )
        steps.extend(
            f"At {days} days: projected {fmt_percent(ratio)} full "
            f"({'within' if ratio <= limit else 'over'} the limit)."
            for days, ratio in projections
        )
    longest = None
    needs_more = False
    margin_days = None
    advice: list[str] = []
    if not enough:
        recommended = default
        steps.append(
            f"{len(usable)} usable observation(s); {ruleset.min_observations_for_frequency} are needed "
            f"to set a frequency from data (E4). The default applies: every {fmt_days(default)}."
        )
        if rate is not None and rate * default / total > limit:
            steps.append("Warning: the readings so far suggest the default is too long; keep measuring.")
    else:
        assert rate is not None and longest_observed is not None
        longest = longest_supported_frequency(longest_observed, ruleset)
        steps.append(
            f"Longest interval observed: {fmt_days(longest_observed)}; the data supports frequencies "
            f"up to {longest} days (at most {ruleset.frequency_extrapolation_steps} step(s) of the E1 "
            "list beyond what was observed)."
        )
        fitting = [days for days, ratio in projections if days <= longest and ratio <= limit]
        if fitting:
            recommended = fitting[-1]
            steps.append(
                f"Recommended: every {fmt_days(recommended)}, the longest supported frequency within the limit."
            )
        else:
            recommended = allowed[0]
            needs_more = True
            steps.append(
                f"Even the shortest allowed frequency, {fmt_days(recommended)}, overflows: it is recommended, "
                "and the device needs more frequent service than E1 allows (see E6, E8)."
            )
        with_margin = [days for days, ratio in projections if days <= longest and ratio * factor <= limit]
        margin_days = with_margin[-1] if with_margin else None
        if not needs_more and margin_days != recommended:
            advice.append(
                f"Advice, not a ground for any decision: with a safety margin of {factor} on the average "
                "rate, the longest frequency within the limit would be "
                + (f"every {fmt_days(margin_days)}." if margin_days else "shorter than any E1 allows.")
            )
    return FrequencyRecommendation(
        recommended_frequency_days=recommended,
        fill_ratio_last=last_ratio,
        rate_in_per_day=rate,
        projected_fill_by_frequency=projections,
        enough_data=enough,
        needs_more_frequent_than_allowed=needs_more,
        safety_factor=factor,
        fill_limit=limit,
        longest_supported_days=longest,
        observations_used=len(usable),
        explanation=explain(("E1", "E3", "E4", "E9"), steps),
        total_depth_in=total,
        intervals_observed=intervals_observed(usable),
        longest_observed_days=longest_observed,
        margin_frequency_days=margin_days,
        advice=tuple(advice),
    )


@dataclasses.dataclass(frozen=True)
class FrequencyRequestDecision:
    """The assessment of an owner's written request to change the frequency (E5).

    ``granted`` and ``reasons`` are the finding, on the chapter's grounds only: an E1 frequency,
    the average accumulation projected to the requested interval within the E3 limit, and full
    compliance (E5). ``advice`` is kept apart: things the FOG Manager may weigh (a safety margin,
    an interval longer than any observed), never a ground for the finding.
    """

    granted: bool
    requested_days: int
    reasons: tuple[str, ...]
    recommendation: FrequencyRecommendation
    explanation: Explanation
    projected_fill_ratio: Decimal | None = None
    advice: tuple[str, ...] = ()


def assess_frequency_request(
    *,
    requested_days: int,
    kind: str,
    total_depth_in: Decimal | int | str,
    observations: Iterable[ObservationLike],
    compliance_ok: bool,
    ruleset: Ruleset,
    current_days: int | None = None,
    compliance_findings: Sequence[str] = (),
) -> FrequencyRequestDecision:
    """E5 (with E1, E3): is the owner's requested frequency justified?

    E5 puts the burden on the owner to show, "based on the average FOG accumulation over time",
    that the requested interval meets the 25% rule (E3), and that the FSE is "in full compliance".
    So the request is justified when: it is an allowed frequency (E1); the FSE fully complies
    (``compliance_ok``; ``compliance_findings`` say what does not); and the average accumulation
    rate, projected to the requested interval, stays within the E3 limit. The average needs the
    data E4 calls "sufficient" (``min_observations_for_frequency`` readings after pump-outs) -
    except for a request at or below the current frequency (``current_days``, default: the E2
    default), which asks for service at least as often as the device already complies with.

    Nothing else is a ground: a safety margin on the rate, or an interval longer than any yet
    observed, is reported in ``advice``, apart from the finding.
    """
    items = observations_of(observations)
    recommendation = recommend_frequency(
        kind=kind, total_depth_in=total_depth_in, observations=items, ruleset=ruleset
    )
    current = current_days or default_frequency(kind, ruleset)
    limit = ruleset.fill_limit_ratio
    provisions = ["E5", "E3", "E1"]
    failed: list[str] = []
    passed: list[str] = []
    advice: list[str] = []
    allowed = sorted(ruleset.allowed_frequencies_days)
    if requested_days in allowed:
        passed.append(f"{requested_days} days is an allowed frequency (E1).")
    else:
        failed.append(
            f"{requested_days} days is not an allowed frequency; allowed: {', '.join(map(str, allowed))} (E1)."
        )
    if compliance_ok:
        passed.append("The FSE is in full compliance with its permit and the chapter (E5).")
    else:
        failed.append(
            "The FSE is not in full compliance with its permit and the chapter (E5)"
            + (": " + "; ".join(compliance_findings) + "." if compliance_findings else ".")
        )
    projected = None
    rate = recommendation.rate_in_per_day
    if recommendation.enough_data and rate is not None:
        projected = recommendation.projected_fill_at(requested_days)
        assert projected is not None
        line = (
            f"The average FOG accumulation over time, {_fmt_rate(rate)} from "
            f"{recommendation.observations_used} reading(s) after pump-outs, projected to "
            f"{fmt_days(requested_days)} fills {fmt_percent(projected)} of the "
            f"{recommendation.total_depth_in} in total depth: "
            + (
                f"within the {fmt_percent(limit)} limit (E5, E3)."
                if projected <= limit
                else f"over the {fmt_percent(limit)} limit (E5, E3)."
            )
        )
        (passed if projected <= limit else failed).append(line)
        margin = margin_advice(rate, requested_days, recommendation.total_depth_in, ruleset)
        if margin and projected <= limit:
            advice.append(margin)
        longest_observed = recommendation.longest_observed_days
        if longest_observed is not None and requested_days > longest_observed:
            advice.append(
                f"Advice, not a ground for any decision: the longest interval observed is "
                f"{fmt_days(longest_observed)}; the projection to {fmt_days(requested_days)} extends the "
                "average beyond it."
            )
    elif requested_days <= current:
        passed.append(
            f"Every {fmt_days(requested_days)} is no longer than the current {fmt_days(current)}: service "
            "at least as often as now, so no accumulation data is needed to show the E3 limit is kept (E5)."
        )
    else:
        provisions.append("E4")
        failed.append(
            f"The average FOG accumulation over time is not shown: {recommendation.observations_used} "
            "usable observation(s) (readings after a full pump-out) are on record; "
            f"{ruleset.min_observations_for_frequency} are needed to establish an average (E5, E4)."
        )
    granted = not failed
    reasons = tuple(passed if granted else failed)
    steps = [f"Request: service every {fmt_days(requested_days)} (currently every {fmt_days(current)})."]
    steps.extend(passed + failed)
    steps.append(
        "Granted: the request is justified; the permit is revised and reissued (E5)."
        if granted
        else "Refused: the request is not justified on the grounds above (E5)."
    )
    return FrequencyRequestDecision(
        granted=granted,
        requested_days=requested_days,
        reasons=reasons,
        recommendation=recommendation,
        explanation=explain(provisions, steps),
        projected_fill_ratio=projected,
        advice=tuple(advice),
    )


@dataclasses.dataclass(frozen=True)
class InterceptorRequirement:
    """E8: whether a grease trap on the E8 frequency must submit grease interceptor plans.

    ``applies`` is False for other devices and other frequencies. ``needs_more_frequent`` is the
    finding on the data; ``required`` is that finding unless an exception is recorded.
    """

    applies: bool
    needs_more_frequent: bool
    required: bool
    exception: str | None
    projected_fill_at_threshold: Decimal | None
    intervals_observed: int
    explanation: Explanation


def interceptor_requirement(
    *,
    kind: str,
    current_frequency_days: int,
    recommendation: FrequencyRecommendation | None,
    ruleset: Ruleset,
    space_exception: bool = False,
    slope_exception: bool = False,
) -> InterceptorRequirement:
    """E8: "A FSE that is on a 30-day grease trap maintenance frequency and requires more frequent
    maintenance shall submit plans ... for a grease interceptor", unless space or slope is
    inadequate.

    "Requires more frequent maintenance" is read from the data, as E3-E5 read a frequency: the
    trap's average accumulation over at least ``interceptor_min_intervals`` service intervals,
    projected to ``trap_interceptor_threshold_days``, goes past the E3 limit. One late pump-out
    found over the limit is an E6 matter (immediate service, a frequency review), not E8.
    """
    check_kind(kind)
    threshold = ruleset.trap_interceptor_threshold_days
    limit = ruleset.fill_limit_ratio
    least = ruleset.interceptor_min_intervals
    intervals = recommendation.intervals_observed if recommendation else 0
    if kind != HYDROMECHANICAL_INTERCEPTOR or current_frequency_days > threshold:
        return InterceptorRequirement(
            False, False, False, None, None, intervals,
            explain(("E8",), [f"E8 applies to a grease trap on a {fmt_days(threshold)} frequency: not this device."]),
        )  # fmt: skip
    steps = [
        f"E8: the trap is on a {fmt_days(current_frequency_days)} frequency; does it need service more "
        f"often than every {fmt_days(threshold)}?"
    ]
    projected = recommendation.projected_fill_at(threshold) if recommendation else None
    needs_more = False
    if projected is None or intervals < least:
        steps.append(
            f"The accumulation data covers {intervals} service interval(s); at least {least} are needed to "
            "show the trap needs more frequent service. A single reading over the limit calls for "
            "immediate service and a frequency review (E6), not interceptor plans."
        )
    else:
        assert recommendation is not None and recommendation.rate_in_per_day is not None
        needs_more = projected > limit
        steps.append(
            f"Average accumulation over {intervals} service intervals: {_fmt_rate(recommendation.rate_in_per_day)}; "
            f"in {fmt_days(threshold)} it reaches {fmt_percent(projected)} of the "
            f"{recommendation.total_depth_in} in total depth, "
            + (
                f"past the {fmt_percent(limit)} limit (E3): the trap needs more frequent service."
                if needs_more
                else f"within the {fmt_percent(limit)} limit (E3): service every {fmt_days(threshold)} is enough."
            )
        )
    exception = None
    required = False
    if needs_more:
        if space_exception or slope_exception:
            exception = "inadequate space" if space_exception else "inadequate slope for gravity flow"
            steps.append(f"An exception is recorded ({exception}): no interceptor plans required (E8).")
        else:
            required = True
            steps.append("The FSE must submit plans for a grease interceptor to Building and Safety (E8).")
    return InterceptorRequirement(
        applies=True,
        needs_more_frequent=needs_more,
        required=required,
        exception=exception,
        projected_fill_at_threshold=projected,
        intervals_observed=intervals,
        explanation=explain(("E8", "E3"), steps),
    )
