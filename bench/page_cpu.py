"""Benchmark: the server's CPU per request of an FSE's page and a device's history, in process (issue 16).

    .venv/bin/python bench/page_cpu.py --data DIR [--establishments 1000] [--repeat 50] [--profile PAGE]

Prepares the program as bench/load.py does (`fogcontrol bench generate --establishments N` and the
servicing step of the nightly sweep, into the data folder DIR with SQLite, or into DATABASE_URL; a
folder or database that already holds a program is reused, so one generation serves the runs
before and after a change). Then, through Django's test client in this process, signed in as the
FOG Manager (a forced, verified sign-in), it requests the floor (the sign-in page, anonymous), a
signed-in staff page that reads nothing of the program (`/password/change/`: the fixed cost of a
session), the staff home (`home`, `/`), the FSE list, the manifest and permit lists (`manifests`, `permits`), the pages of
`--sample` establishments in turn and the histories of `--sample` devices in turn, and the four
API lists with the manager's API token (`api-establishments` …; `--pages` for some of them only),
`--repeat` times each, and prints the median, 10th percentile and mean CPU time a request
(``time.process_time``: the Python of the whole stack, and SQLite's engine, which runs in this
process) and the queries of one request (counted on a separate request, so that capturing them
costs nothing in the timing). `--profile PAGE` prints cProfile's top functions (CPU time) of that
page instead (`PROFILE_LINES=N` in the environment for more than 60 of them), `--sql` the queries
of one request of each page, `--save DIR` each page's HTML with
its CSRF tokens blanked (to diff the pages before and after a change).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

API_LISTS = ["establishments", "devices", "manifests", "permits"]


PAGES = [
    "floor",
    "staff",
    "home",
    "list",
    "fse",
    "device",
    "manifests",
    "permits",
    *(f"api-{name}" for name in API_LISTS),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="Data folder to keep and reuse.")
    parser.add_argument("--establishments", type=int, default=1000, help="Generated if empty.")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--sample", type=int, default=10, help="Pages requested in turn.")
    parser.add_argument("--profile", choices=PAGES)
    parser.add_argument("--pages", nargs="+", choices=PAGES, help="Only these pages.")
    parser.add_argument("--sql", action="store_true", help="Print the queries of one request of each page.")
    parser.add_argument(
        "--save", type=Path, help="Write each page's HTML here (CSRF tokens blanked), to diff."
    )
    args = parser.parse_args(argv)

    args.data.mkdir(parents=True, exist_ok=True)
    os.environ.update(
        FOGCONTROL_DATA_DIR=str(args.data),
        FOGCONTROL_ENV="development",
        FOGCONTROL_DEBUG="false",
        FOGCONTROL_TASKS="immediate",
        DJANGO_SETTINGS_MODULE="fogcontrol.settings",
    )
    from bench.load import prepare, spread

    prepared = prepare(args.establishments, lambda message: print(message, file=sys.stderr, flush=True))
    import logging

    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.DEBUG = False
    # Not Django's setup_test_environment(): it makes every template render send a signal, on
    # which the test client copies the template's context (for `response.context`), work the
    # server never does and a sixth of a small page's CPU. The client's host is allowed instead.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("axes").setLevel(logging.WARNING)
    staff, anonymous = Client(), Client()
    api = Client(HTTP_AUTHORIZATION=f"Token {prepared.token}", HTTP_ACCEPT="application/json")
    staff.cookies[settings.SESSION_COOKIE_NAME] = prepared.session_cookie
    pages = {
        "floor": (anonymous, ["/login/"]),
        # A signed-in staff page that reads nothing of the program: the fixed cost of a session.
        "staff": (staff, ["/password/change/"]),
        # The staff home: the "today" dashboard of kept counts.
        "home": (staff, ["/"]),
        "list": (staff, ["/registry/establishments/"]),
        "fse": (staff, [f"/registry/establishments/{pk}/" for pk in spread(prepared.fse_ids, args.sample)]),
        "device": (staff, [f"/servicing/devices/{pk}/" for pk in spread(prepared.device_ids, args.sample)]),
        "manifests": (staff, ["/servicing/manifests/"]),
        "permits": (staff, ["/permits/list/"]),
        # The API lists as a program reads them: the first page, the second, one filtered.
        **{f"api-{name}": (api, [f"/api/v1/{name}/", f"/api/v1/{name}/?page=2"]) for name in API_LISTS},
    }
    print(
        f"# {connection.vendor}: {prepared.establishments} establishments, {prepared.devices} devices, "
        f"{prepared.manifests} manifests; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        flush=True,
    )
    if args.pages:
        pages = {name: pages[name] for name in pages if name in args.pages or name == "floor"}
    if args.profile:
        client, paths = pages[args.profile]
        for path in paths:
            client.get(path)
        # CPU time, not wall time: on a loaded machine the wall clock charges waits to whatever ran.
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for i in range(args.repeat):
            client.get(paths[i % len(paths)])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(int(os.environ.get("PROFILE_LINES", 60)))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        return 0

    if args.save:
        import re

        args.save.mkdir(parents=True, exist_ok=True)
        for client, paths in pages.values():
            for path in paths:
                html = client.get(path).content.decode()
                html = re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]*"', r'\1""', html)
                name = re.sub(r"[/?=&]", "_", path.strip("/")) or "root"
                (args.save / name).with_suffix(".html").write_text(html)
        return 0
    if args.sql:
        for name, (client, paths) in pages.items():
            client.get(paths[0])
            with CaptureQueriesContext(connection) as queries:
                client.get(paths[0])
            print(f"## {name} {paths[0]}: {len(queries)} queries")
            for query in queries.captured_queries:
                print(f"  {query['sql'][:300]}")
        return 0
    print(f"{'page':<18} {'CPU ms/req (median)':>20} {'p10':>8} {'mean':>8} {'x floor':>8} {'queries':>16}")
    floor = None
    for name, (client, paths) in pages.items():
        counts = []
        for path in paths:
            response = client.get(path)  # warm
            assert response.status_code == 200, (path, response.status_code)
            with CaptureQueriesContext(connection) as queries:
                client.get(path)
            counts.append(len(queries))
        cpus = []
        for i in range(args.repeat):
            began = time.process_time()
            client.get(paths[i % len(paths)])
            cpus.append((time.process_time() - began) * 1000)
        median = statistics.median(cpus)
        p10 = statistics.quantiles(cpus, n=10)[0] if len(cpus) > 1 else median
        floor = floor or median
        queries = f"{min(counts)}-{max(counts)}" if min(counts) != max(counts) else str(counts[0])
        print(
            f"{name:<18} {median:>20.1f} {p10:>8.1f} "
            f"{statistics.mean(cpus):>8.1f} {median / floor:>8.1f} {queries:>16}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
