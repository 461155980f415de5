"""The module-size check `make test` runs: no module of fogcontrol over MAX_LINES lines.

Long modules are where one decision ends up restated three times; split one by operation before
it grows past the limit (docs/architecture.md, "Adding an app"). Tests and migrations aside: a
test file reads as a list of cases, and a migration is generated.

    python -m fogcontrol.testing.module_size      # exit status 1, and the list, when one is over
"""

from __future__ import annotations

import sys
from pathlib import Path

MAX_LINES = 600
PACKAGE = Path(__file__).resolve().parent.parent
# Parts of a path whose modules are not checked.
EXEMPT_PARTS = frozenset({"tests", "migrations"})


def oversized_modules(root: Path = PACKAGE, max_lines: int = MAX_LINES) -> list[tuple[Path, int]]:
    """Every module under ``root`` (tests and migrations aside) longer than ``max_lines``, longest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if EXEMPT_PARTS & set(path.relative_to(root).parts):
            continue
        with path.open(encoding="utf-8") as handle:
            lines = sum(1 for _ in handle)
        if lines > max_lines:
            found.append((path, lines))
    return sorted(found, key=lambda item: -item[1])


def main() -> int:
    oversized = oversized_modules()
    for path, lines in oversized:
        print(
            f"{path.relative_to(PACKAGE.parent)}: {lines} lines (the limit is {MAX_LINES}): split it by operation."
        )
    if not oversized:
        print(f"Every module is within {MAX_LINES} lines.")
    return 1 if oversized else 0


if __name__ == "__main__":
    sys.exit(main())
