"""What the running command holds until it ends: the locks it takes before the work."""

from __future__ import annotations

import contextlib

#: what the running command holds until it ends (locks taken before the work): closed
#: by :func:`toypoker.cli.main` when the command returns or fails
HELD = contextlib.ExitStack()


def hold(manager: contextlib.AbstractContextManager) -> object:
    """Enter ``manager`` now (a run lock, taken before the game is built: a refusal then
    comes at once, not after the build) and exit it when the command ends."""
    return HELD.enter_context(manager)


def release_held() -> None:
    """Exit what the command held (:func:`hold`), last taken first."""
    HELD.close()
