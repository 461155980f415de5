"""bench/load.py's pieces: the percentile, the even sample, the table, and the client against a
tiny server on loopback (no timing assertions: speed is measured by the benchmark itself)."""

from __future__ import annotations

import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench import load


def test_percentile_interpolates_between_ranks():
    values = [float(v) for v in range(1, 101)]  # 1..100
    assert load.percentile(values, 50) == pytest.approx(50.5)
    assert load.percentile(values, 95) == pytest.approx(95.05)
    assert load.percentile(values, 0) == 1.0
    assert load.percentile(values, 100) == 100.0
    assert load.percentile([7.0], 99) == 7.0
    assert load.percentile([3.0, 1.0, 2.0], 50) == 2.0  # unsorted input
    assert math.isnan(load.percentile([], 50))


def test_spread_takes_evenly_spaced_values():
    assert load.spread(list(range(100)), 4) == [0, 25, 50, 75]
    assert load.spread([1, 2], 50) == [1, 2]


def test_table_gives_each_target_its_ratio_to_the_floor():
    rows = [
        load.Result(target="floor", latencies_ms=[1.0, 2.0, 2.0, 2.0], seconds=2.0, server_cpu_s=0.004),
        load.Result(target="list", latencies_ms=[4.0, 6.0, 6.0, 6.0], seconds=2.0, errors=1),
    ]
    text = load.table(rows)
    list_line = text.splitlines()[2]
    assert list_line.split()[:6] == ["list", "6.0", "6.0", "6.0", "2.0", "3.0"]
    assert "1.0" in text.splitlines()[1]  # the floor's app CPU: 4 ms over 4 requests


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        status = 200 if self.path.startswith("/ok") else 404
        body = b"hello"
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_hammer_counts_answers_and_errors_against_a_live_server():
    server = ThreadingHTTPServer((load.LOOPBACK, 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        result = load.hammer(port, ("/ok/1", "/ok/2"), headers={}, users=2, seconds=0.3)
        assert result.latencies_ms and result.errors == 0
        missing = load.hammer(port, ("/missing",), headers={}, users=1, seconds=0.2)
        assert not missing.latencies_ms and missing.errors > 0
    finally:
        server.shutdown()
        server.server_close()
