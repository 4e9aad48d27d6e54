"""Test-wide settings.

Hypothesis: no per-example deadline (the machines are shared; timing is not what these tests
check), and under CI (``CI`` set, as ``.ci/run`` runs) the examples are derandomized so that a
run is reproducible; locally every run explores new examples.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")
