"""``collector_paused``: the cyclic collector off inside the block and as it was after it (the
manifest ingest runs its chunks inside one, issue 16)."""

import gc

import pytest

from fogcontrol.core.collector import collector_paused


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_and_on_again_after(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error(collector_on):
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("the chunk failed")
    assert gc.isenabled()


def test_a_block_inside_another_leaves_it_off_until_the_outer_ends(collector_on):
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_process_that_turned_it_off_keeps_it_off(collector_on):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
