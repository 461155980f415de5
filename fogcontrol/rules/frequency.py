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
from operator import attrgetter

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
from fogcontrol.rules.explain import Explanation, explain, fmt_days, fmt_percent, say
from fogcontrol.rules.frequency_working import fmt_rate as _fmt_rate
from fogcontrol.rules.frequency_working import recommendation_working
from fogcontrol.rules.ruleset import Ruleset

_DAYS = attrgetter("days_since_pumpout")
_SINCE = attrgetter("since")


def _rate(observation: Observation) -> Decimal:
    return (observation.fog_depth_in + observation.solids_depth_in) / observation.days_since_pumpout


def _observations(values: Iterable[ObservationLike]) -> tuple[Observation, ...]:
    """``observations_of``, without building again an observation that is already exact (whole
    days, finite ``Decimal`` depths): the history's observations come that way, and copying each
    twice and checking each depth four times was most of a device snapshot's time (issue 16)."""
    out: list[Observation] = []
    for value in values:
        if type(value) is Observation:
            days, fog, solids, _ = value  # a named tuple: unpacked at once
            if (
                type(days) is int
                and type(fog) is Decimal
                and type(solids) is Decimal
                and fog.is_finite()
                and solids.is_finite()
            ):
                out.append(value)  # what observations_of would build: equal in every field
                continue
        out.extend(observations_of((value,)))
    return tuple(out)


def _checked_usable(items: Sequence[Observation], total: Decimal) -> tuple[list[Observation], Decimal | None]:
    """E3: every reading must fit the device, as ``fill_ratio`` checks it (and with its error),
    without dividing when it fits; then the observations past day 0 and the mean of their rates
    (E4, E5, as ``_mean_rate``). One pass: the sweep's first run judges every device of a program,
    and walking each history three times (check, filter, mean), adding FOG and solids twice, was a
    fifth of the recommendation (issue 16). The rates are added in the same order from the same
    ``Decimal(0)``, so the mean is the same to the last digit."""
    usable: list[Observation] = []
    summed = Decimal(0)
    for item in items:
        days, fog, solids, _ = item
        if fog < 0 or solids < 0 or total <= 0:
            fill_ratio(fog, solids, total)  # raises the ValueError naming the field
        depth = fog + solids
        if depth > total:
            fill_ratio(fog, solids, total)
        if days > 0:
            usable.append(item)
            summed = summed + depth / days  # _rate
    return usable, (summed / len(usable) if usable else None)


def _mean_rate(usable: Sequence[Observation]) -> Decimal | None:
    """The mean of the rates of observations already made exact and past day 0 (E4, E5)."""
    return sum(map(_rate, usable), Decimal(0)) / len(usable) if usable else None


def accumulation_rate(observations: Iterable[ObservationLike]) -> Decimal | None:
    """E4 / E5: the average FOG accumulation over time, inches of FOG + solids per day.

    Each observation gives a rate through the origin (a full pump-out leaves the device empty):
    (FOG + solids) / days since pump-out. The result is the AVERAGE (arithmetic mean) of those
    rates, as E5 ("based on the average FOG accumulation over time") and E4 ("an average
    frequency") say. Observations at day 0 or before are ignored. None when none can be used.
    """
    return _mean_rate([o for o in _observations(observations) if o.days_since_pumpout > 0])


def intervals_observed(observations: Sequence[Observation]) -> int:
    """E8: how many service intervals the usable observations cover. Observations that count from
    the same pump-out (``since``) lie in one interval; one without a date is its own interval."""
    since = list(map(_SINCE, observations))  # read once, in C (issue 16: the sweep asks this of every device)
    dated = set(since)
    dated.discard(None)
    return len(dated) + since.count(None)


def _joined(findings: Sequence[str]) -> str:
    """The caller's compliance findings, "; "-joined (each said again when it is a sentence)."""
    if all(hasattr(finding, "template") for finding in findings):
        names = {f"f{index}": finding for index, finding in enumerate(findings)}
        template = "; ".join(f"%({name})s" for name in names)  # no words: nothing to translate
        return say(template, **names)
    return "; ".join(findings)


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
    return say(
        "Advice, not a ground for any decision: if the device filled %(factor)s times faster than its "
        "average, %(days)s would reach %(with_margin)s of its depth, over the %(limit)s limit. A "
        "sludge-height reading during the first interval at this frequency would confirm the average.",
        factor=factor,
        days=fmt_days(days),
        with_margin=fmt_percent(with_margin),
        limit=fmt_percent(limit),
    )


def recommend_frequency(
    *,
    kind: str,
    total_depth_in: Decimal | int | str,
    observations: Iterable[ObservationLike],
    ruleset: Ruleset,
    worded: bool = True,
) -> FrequencyRecommendation:
    """E1 / E3 / E4 / E9: the LONGEST allowed frequency whose projected fill, from the average
    accumulation rate, stays within the E3 limit.

    Until ``min_observations_for_frequency`` usable observations exist, the default frequency
    (E2 / E4: quarterly for interceptors) is recommended and ``enough_data`` is False. The
    recommendation is never longer than ``longest_supported_frequency``. If even the shortest
    allowed frequency overflows, the shortest is recommended and
    ``needs_more_frequent_than_allowed`` is True. The safety margin is only advice (see the class).

    ``worded=False``: the same verdict without its working (the explanation keeps its provisions,
    with no steps, and no advice), for a caller that stores only the figures: the nightly sweep's
    state rows (issue 16). The sentences are said by ``frequency_working`` from what is decided here.
    """
    check_kind(kind)
    total = to_decimal(total_depth_in, "total_depth_in")
    items = _observations(observations)
    usable, rate = _checked_usable(items, total)  # validates every reading (E3) first
    allowed = tuple(sorted(ruleset.allowed_frequencies_days))
    limit, factor = ruleset.fill_limit_ratio, ruleset.frequency_safety_factor
    last = items[-1] if items else None
    last_ratio = fill_ratio(last.fog_depth_in, last.solids_depth_in, total) if last else None
    default = default_frequency(kind, ruleset)
    enough = len(usable) >= ruleset.min_observations_for_frequency
    longest_observed = max(map(_DAYS, usable), default=None)
    projections: tuple[tuple[int, Decimal], ...] = ()
    if rate is not None:
        projections = tuple((days, rate * days / total) for days in allowed)
    longest = None
    needs_more = False
    margin_days = None
    if not enough:
        recommended = default
    else:
        assert rate is not None and longest_observed is not None
        longest = longest_supported_frequency(longest_observed, ruleset)
        fitting = [days for days, ratio in projections if days <= longest and ratio <= limit]
        if fitting:
            recommended = fitting[-1]
        else:
            recommended = allowed[0]
            needs_more = True
        with_margin = [days for days, ratio in projections if days <= longest and ratio * factor <= limit]
        margin_days = with_margin[-1] if with_margin else None
    steps: list[str] = []
    advice: list[str] = []
    if worded:
        steps, advice = recommendation_working(
            allowed=allowed,
            total=total,
            rate=rate,
            usable=len(usable),
            projections=projections,
            enough=enough,
            default=default,
            longest_observed=longest_observed,
            longest=longest,
            recommended=recommended,
            needs_more=needs_more,
            margin_days=margin_days,
            ruleset=ruleset,
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
        passed.append(say("%(days)s days is an allowed frequency (E1).", days=requested_days))
    else:
        failed.append(
            say(
                "%(days)s days is not an allowed frequency; allowed: %(allowed)s (E1).",
                days=requested_days,
                allowed=", ".join(map(str, allowed)),
            )
        )
    if compliance_ok:
        passed.append(say("The FSE is in full compliance with its permit and the chapter (E5)."))
    elif compliance_findings:
        failed.append(
            say(
                "The FSE is not in full compliance with its permit and the chapter (E5): %(findings)s.",
                findings=_joined(compliance_findings),
            )
        )
    else:
        failed.append(say("The FSE is not in full compliance with its permit and the chapter (E5)."))
    projected = None
    rate = recommendation.rate_in_per_day
    if recommendation.enough_data and rate is not None:
        projected = recommendation.projected_fill_at(requested_days)
        assert projected is not None
        values = {
            "rate": _fmt_rate(rate),
            "count": recommendation.observations_used,
            "days": fmt_days(requested_days),
            "projected": fmt_percent(projected),
            "total": recommendation.total_depth_in,
            "limit": fmt_percent(limit),
        }
        line = (
            say(
                "The average FOG accumulation over time, %(rate)s from %(count)s reading(s) after pump-outs, "
                "projected to %(days)s fills %(projected)s of the %(total)s in total depth: within the "
                "%(limit)s limit (E5, E3).",
                **values,
            )
            if projected <= limit
            else say(
                "The average FOG accumulation over time, %(rate)s from %(count)s reading(s) after pump-outs, "
                "projected to %(days)s fills %(projected)s of the %(total)s in total depth: over the "
                "%(limit)s limit (E5, E3).",
                **values,
            )
        )
        (passed if projected <= limit else failed).append(line)
        margin = margin_advice(rate, requested_days, recommendation.total_depth_in, ruleset)
        if margin and projected <= limit:
            advice.append(margin)
        longest_observed = recommendation.longest_observed_days
        if longest_observed is not None and requested_days > longest_observed:
            advice.append(
                say(
                    "Advice, not a ground for any decision: the longest interval observed is %(observed)s; the "
                    "projection to %(days)s extends the average beyond it.",
                    observed=fmt_days(longest_observed),
                    days=fmt_days(requested_days),
                )
            )
    elif requested_days <= current:
        passed.append(
            say(
                "Every %(days)s is no longer than the current %(current)s: service at least as often as now, "
                "so no accumulation data is needed to show the E3 limit is kept (E5).",
                days=fmt_days(requested_days),
                current=fmt_days(current),
            )
        )
    else:
        provisions.append("E4")
        failed.append(
            say(
                "The average FOG accumulation over time is not shown: %(count)s usable observation(s) "
                "(readings after a full pump-out) are on record; %(needed)s are needed to establish an "
                "average (E5, E4).",
                count=recommendation.observations_used,
                needed=ruleset.min_observations_for_frequency,
            )
        )
    granted = not failed
    reasons = tuple(passed if granted else failed)
    steps = [
        say(
            "Request: service every %(days)s (currently every %(current)s).",
            days=fmt_days(requested_days),
            current=fmt_days(current),
        )
    ]
    steps.extend(passed + failed)
    steps.append(
        say("Granted: the request is justified; the permit is revised and reissued (E5).")
        if granted
        else say("Refused: the request is not justified on the grounds above (E5).")
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
            explain(("E8",), [say("E8 applies to a grease trap on a %(days)s frequency: not this device.", days=fmt_days(threshold))]),
        )  # fmt: skip
    steps = [
        say(
            "E8: the trap is on a %(days)s frequency; does it need service more often than every %(threshold)s?",
            days=fmt_days(current_frequency_days),
            threshold=fmt_days(threshold),
        )
    ]
    projected = recommendation.projected_fill_at(threshold) if recommendation else None
    needs_more = False
    if projected is None or intervals < least:
        steps.append(
            say(
                "The accumulation data covers %(count)s service interval(s); at least %(least)s are needed to "
                "show the trap needs more frequent service. A single reading over the limit calls for "
                "immediate service and a frequency review (E6), not interceptor plans.",
                count=intervals,
                least=least,
            )
        )
    else:
        assert recommendation is not None and recommendation.rate_in_per_day is not None
        needs_more = projected > limit
        values = {
            "count": intervals,
            "rate": _fmt_rate(recommendation.rate_in_per_day),
            "days": fmt_days(threshold),
            "projected": fmt_percent(projected),
            "total": recommendation.total_depth_in,
            "limit": fmt_percent(limit),
        }
        steps.append(
            say(
                "Average accumulation over %(count)s service intervals: %(rate)s; in %(days)s it reaches "
                "%(projected)s of the %(total)s in total depth, past the %(limit)s limit (E3): the trap needs "
                "more frequent service.",
                **values,
            )
            if needs_more
            else say(
                "Average accumulation over %(count)s service intervals: %(rate)s; in %(days)s it reaches "
                "%(projected)s of the %(total)s in total depth, within the %(limit)s limit (E3): service every "
                "%(days)s is enough.",
                **values,
            )
        )
    exception = None
    required = False
    if needs_more:
        if space_exception or slope_exception:
            exception = (
                say("inadequate space") if space_exception else say("inadequate slope for gravity flow")
            )
            steps.append(
                say(
                    "An exception is recorded (%(exception)s): no interceptor plans required (E8).",
                    exception=exception,
                )
            )
        else:
            required = True
            steps.append(
                say("The FSE must submit plans for a grease interceptor to Building and Safety (E8).")
            )
    return InterceptorRequirement(
        applies=True,
        needs_more_frequent=needs_more,
        required=required,
        exception=exception,
        projected_fill_at_threshold=projected,
        intervals_observed=intervals,
        explanation=explain(("E8", "E3"), steps),
    )
