"""Service frequency from accumulation data: the rate, the recommendation, owner requests (E1-E5, E9)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from decimal import Decimal

from fogcontrol.rules.devices import (
    ObservationLike,
    check_kind,
    default_frequency,
    fill_ratio,
    observations_of,
    to_decimal,
)
from fogcontrol.rules.explain import Explanation, explain, fmt_days, fmt_percent
from fogcontrol.rules.ruleset import Ruleset


def _median(values: Sequence[Decimal]) -> Decimal:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def accumulation_rate(observations: Iterable[ObservationLike]) -> Decimal | None:
    """E4 / E5: the typical accumulation rate, inches of FOG + solids per day.

    Each observation gives a rate through the origin (a full pump-out leaves the device empty):
    (FOG + solids) / days since pump-out. The result is the MEDIAN of those rates, so one odd
    reading among three or more cannot move it far. Observations at day 0 or before are ignored.
    None when no observation can be used.
    """
    rates = [
        (o.fog_depth_in + o.solids_depth_in) / o.days_since_pumpout
        for o in observations_of(observations)
        if o.days_since_pumpout > 0
    ]
    return _median(rates) if rates else None


@dataclasses.dataclass(frozen=True)
class FrequencyRecommendation:
    """A frequency set from accumulation data (E1, E3, E4, E9).

    ``projected_fill_by_frequency`` holds (days, projected fill ratio) for every allowed frequency
    BEFORE the safety factor; a frequency fits when ratio x ``safety_factor`` <= ``fill_limit``.
    ``longest_supported_days`` is the longest frequency the data can support (see
    ``recommend_frequency``).
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


def longest_supported_frequency(longest_observed_days: int, ruleset: Ruleset) -> int:
    """E4 / E5: "never longer than the data supports".

    The longest allowed frequency at or below the longest observed pump-out interval, plus
    ``frequency_extrapolation_steps`` steps of the E1 list (capped at the longest allowed). With
    the defaults: observed 90 days -> up to 120; observed 45 days -> up to 60; observed 20 -> 30.
    """
    allowed = sorted(ruleset.allowed_frequencies_days)
    within = [index for index, days in enumerate(allowed) if days <= longest_observed_days]
    base = within[-1] if within else -1
    index = min(max(base + ruleset.frequency_extrapolation_steps, 0), len(allowed) - 1)
    return allowed[index]


def recommend_frequency(
    *,
    kind: str,
    total_depth_in: Decimal | int | str,
    observations: Iterable[ObservationLike],
    ruleset: Ruleset,
) -> FrequencyRecommendation:
    """E1 / E3 / E4 / E9: the LONGEST allowed frequency whose projected fill, times the safety
    factor, stays within the E3 limit.

    Until ``min_observations_for_frequency`` usable observations exist, the default frequency
    (E2 / E4: quarterly for interceptors) is recommended and ``enough_data`` is False. The
    recommendation is never longer than ``longest_supported_frequency``. If even the shortest
    allowed frequency overflows, the shortest is recommended and
    ``needs_more_frequent_than_allowed`` is True.
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
    steps = [
        f"E1 allows these frequencies: {', '.join(str(d) for d in allowed)} days. "
        f"E3 limit: {fmt_percent(limit)} of the {total} in total depth; safety factor {factor}."
    ]
    projections: tuple[tuple[int, Decimal], ...] = ()
    if rate is not None:
        projections = tuple((days, rate * days / total) for days in allowed)
        steps.append(
            f"Accumulation rate: {rate.quantize(Decimal('0.0001'))} in/day, the median of the rates "
            f"of {len(usable)} observation(s) (FOG + solids / days since pump-out)."
        )
        steps.extend(
            f"At {days} days: projected {fmt_percent(ratio)} full, {fmt_percent(ratio * factor)} "
            f"with the safety factor ({'within' if ratio * factor <= limit else 'over'} the limit)."
            for days, ratio in projections
        )
    longest = None
    needs_more = False
    if not enough:
        recommended = default
        steps.append(
            f"{len(usable)} usable observation(s); {ruleset.min_observations_for_frequency} are needed "
            f"to set a frequency from data (E4). The default applies: every {fmt_days(default)}."
        )
        if rate is not None and rate * default * factor / total > limit:
            steps.append("Warning: the readings so far suggest the default is too long; keep measuring.")
    else:
        assert rate is not None
        longest_observed = max(o.days_since_pumpout for o in usable)
        longest = longest_supported_frequency(longest_observed, ruleset)
        steps.append(
            f"Longest interval observed: {fmt_days(longest_observed)}; the data supports frequencies "
            f"up to {longest} days (at most {ruleset.frequency_extrapolation_steps} step(s) of the E1 "
            "list beyond what was observed)."
        )
        fitting = [days for days, ratio in projections if days <= longest and ratio * factor <= limit]
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
    )


@dataclasses.dataclass(frozen=True)
class FrequencyRequestDecision:
    """The result of an owner's written request to change the frequency (E5)."""

    granted: bool
    requested_days: int
    reasons: tuple[str, ...]
    recommendation: FrequencyRecommendation
    explanation: Explanation


def assess_frequency_request(
    *,
    requested_days: int,
    kind: str,
    total_depth_in: Decimal | int | str,
    observations: Iterable[ObservationLike],
    compliance_ok: bool,
    ruleset: Ruleset,
) -> FrequencyRequestDecision:
    """E5 (with E1, E3, E4): may the requested frequency be granted?

    Granted when: it is an allowed frequency (E1); the FSE is in full compliance (E5); and, for a
    request LONGER than the default for the device, the owner carries the burden: enough
    observations (E4), the data supports that long (``longest_supported_frequency``) and the
    projected fill with the safety factor stays within the limit (E3). A request at or below the
    default (more frequent service) needs no accumulation data. ``reasons`` lists the grounds of
    the decision: the failed tests when refused, the passed ones when granted.
    """
    items = observations_of(observations)
    recommendation = recommend_frequency(
        kind=kind, total_depth_in=total_depth_in, observations=items, ruleset=ruleset
    )
    default = default_frequency(kind, ruleset)
    failed: list[str] = []
    passed: list[str] = []
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
        failed.append("The FSE is not in full compliance with its permit and the chapter (E5).")
    if requested_days <= default:
        passed.append(
            f"{requested_days} days is no longer than the default of {default} days (E2): "
            "no accumulation data is needed to justify it."
        )
    elif not recommendation.enough_data:
        failed.append(
            f"Only {recommendation.observations_used} usable observation(s); "
            f"{ruleset.min_observations_for_frequency} are needed to show the average accumulation (E4, E5)."
        )
    else:
        longest = recommendation.longest_supported_days
        assert longest is not None
        if requested_days > longest:
            failed.append(
                f"The data supports frequencies up to {longest} days only; longer intervals have not been observed."
            )
        projected = dict(recommendation.projected_fill_by_frequency).get(requested_days)
        if projected is not None:
            with_factor = projected * recommendation.safety_factor
            line = (
                f"At {requested_days} days the projected fill is {fmt_percent(projected)}, "
                f"{fmt_percent(with_factor)} with the safety factor (limit {fmt_percent(recommendation.fill_limit)}, E3)."
            )
            (passed if with_factor <= recommendation.fill_limit else failed).append(line)
    granted = not failed
    reasons = tuple(passed if granted else failed)
    verdict = "Granted" if granted else "Refused"
    steps = [f"Request: service every {fmt_days(requested_days)}."]
    steps.extend(passed + failed)
    steps.append(f"{verdict}." + (" The permit is revised and reissued (E5)." if granted else ""))
    return FrequencyRequestDecision(
        granted=granted,
        requested_days=requested_days,
        reasons=reasons,
        recommendation=recommendation,
        explanation=explain(("E5", "E1", "E3", "E4"), steps),
    )
