"""The module-size check: it names a long module and passes over tests and migrations."""

from fogcontrol.testing.module_size import oversized_modules


def _write(path, lines: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n" * lines)


def test_a_module_over_the_limit_is_named_with_its_length(tmp_path):
    _write(tmp_path / "app" / "services.py", 601)
    _write(tmp_path / "app" / "views.py", 600)
    assert oversized_modules(tmp_path, max_lines=600) == [(tmp_path / "app" / "services.py", 601)]


def test_tests_and_migrations_may_be_longer(tmp_path):
    _write(tmp_path / "app" / "tests" / "test_pages.py", 900)
    _write(tmp_path / "app" / "migrations" / "0001_initial.py", 900)
    assert oversized_modules(tmp_path, max_lines=600) == []
