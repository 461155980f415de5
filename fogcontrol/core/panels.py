"""Panels: what an app above shows on a lower app's record page, without the lower app importing it.

The registry's establishment and device pages show the permit and the service status, which the
permits and servicing apps hold; the registry lies below both. Each upper app registers a panel in
its ``AppConfig.ready()`` (as it registers menu items in ``core.navigation``), and the page renders
``{% panels "registry.device" device %}`` (core/templatetags/panels.py). A builder reads what its
panel shows in a fixed number of queries, scoped to the user, and returns None to show nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable


@dataclasses.dataclass(frozen=True)
class Panel:
    key: str
    template: str
    build: Callable[..., dict | None]  # build(user, record) -> the template's context, or None
    order: int = 100


_PANELS: dict[str, dict[str, Panel]] = {}


def register(
    page: str, *, key: str, template: str, build: Callable[..., dict | None], order: int = 100
) -> None:
    """Show ``template`` on ``page`` (e.g. "registry.device"), with the context ``build`` returns.
    Registering the same key again replaces it (``ready()`` may run twice in tests)."""
    _PANELS.setdefault(page, {})[key] = Panel(key=key, template=template, build=build, order=order)


def panels_for(page: str, user, record) -> list[tuple[str, dict]]:
    """The panels of a page for this user and record, in order, as (template, context)."""
    shown = []
    for panel in sorted(_PANELS.get(page, {}).values(), key=lambda p: (p.order, p.key)):
        context = panel.build(user, record)
        if context is not None:
            shown.append((panel.template, context))
    return shown
