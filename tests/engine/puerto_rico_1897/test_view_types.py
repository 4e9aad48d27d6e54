"""1897's view read back into the kernel's words is what the kernel's presentation reads: the
``KernelView`` type (the kernel's view with 1897's parts), which ``vocabulary.kernel_view``
declares it returns (issue #34).  The view 1897's game returns is checked against its own type
by ``tests/engine/test_view_types.py``, with every game's."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.puerto_rico_1897.view import KernelView
from engine.puerto_rico_1897.vocabulary import kernel_view

from ..view_types import check_view, mismatches, played

GAME = get_game("puerto-rico-1897")


@pytest.mark.slow
def test_every_view_read_back_has_the_kernels_type() -> None:
    """Along a random game of each option set, the public view and a seat's (each seat in
    turn), read back, have exactly the kernel's keys (and 1897's parts) with their types.
    (Every seat's view of 1897 has its own type checked in ``tests/engine/test_view_types.py``;
    a seat's view adds the same private keys whoever the seat is.)"""
    for k, options in enumerate(GAME.option_sets()):
        for step, state in played(GAME.name, options, 200 + k):
            for viewer in (None, step % GAME.players(state)):
                check_view(kernel_view(GAME.view(state, viewer)), KernelView,
                           f"{options} step {step}, viewer {viewer}")


def test_an_1897_word_left_in_a_read_back_view_is_seen() -> None:
    """A view not read back (1897's words: ``coins``, ``field``...) is not the kernel's."""
    view = GAME.view(GAME.setup({"players": 3}, 1), 0)
    assert mismatches(kernel_view(view), KernelView) == []
    problems = mismatches(dict(view), KernelView)
    assert "view: no 'colonists'" in problems and "view: 'workers' is not a key of KernelView" in (
        problems)
