"""Loaded by pytest (`-p fogcontrol.testing.pytest_env`) before Django reads its settings.

Tests run background tasks at once, keep uploads in a throwaway folder, and never touch the
developer's ./data.
"""

import os
import tempfile

_scratch = tempfile.mkdtemp(prefix="fogcontrol-test-")
os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
os.environ.setdefault("FOGCONTROL_DATA_DIR", _scratch)
os.environ.setdefault("FOGCONTROL_MEDIA_DIR", os.path.join(_scratch, "media"))
os.environ.setdefault("EMAIL_URL", "locmem://")
