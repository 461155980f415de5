"""Loaded by pytest (`-p fogcontrol.testing.pytest_env`) before Django reads its settings.

Tests run background tasks at once, keep uploads in a throwaway folder, and never touch the
developer's ./data.

Under pytest-xdist (`make test TEST_WORKERS=2`) each worker is a process of its own that inherits
the controller's environment: it takes a throwaway folder of its own too, so one worker's files
(the record key, uploads, a test that counts the files left on disk) never meet another's.
"""

import os
import tempfile

# The folder this module chose, so that a worker can tell it inherited it rather than was given it.
_CHOSEN = "FOGCONTROL_TEST_SCRATCH"

if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(_CHOSEN):
    for _name in ("FOGCONTROL_DATA_DIR", "FOGCONTROL_MEDIA_DIR"):
        if os.environ.get(_name, "").startswith(os.environ[_CHOSEN]):
            del os.environ[_name]

_scratch = tempfile.mkdtemp(prefix="fogcontrol-test-")
if "FOGCONTROL_DATA_DIR" not in os.environ:
    os.environ[_CHOSEN] = _scratch
os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
os.environ.setdefault("FOGCONTROL_DATA_DIR", _scratch)
os.environ.setdefault("FOGCONTROL_MEDIA_DIR", os.path.join(_scratch, "media"))
os.environ.setdefault("EMAIL_URL", "locmem://")
