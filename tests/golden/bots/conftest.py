"""The bot goldens' test shares :mod:`bot_goldens` (this directory on the path)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
