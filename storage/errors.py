"""The one error the store raises: a clear sentence for the operator, never a raw traceback."""

from __future__ import annotations


class StoreError(Exception):
    """The store cannot do what was asked (corrupt or foreign file, newer schema, a write that
    breaks the log's rules, an unknown table or round). `str(error)` is one clear sentence."""


class StoreUnavailable(StoreError):
    """The database server cannot be reached for now (a lost connection not yet restored):
    nothing was stored, and the same call may succeed once the server is back."""


def as_store_error(error: BaseException) -> StoreError:
    """`error` as the store raises it: itself if it is a StoreError, else one made of its text."""
    return error if isinstance(error, StoreError) else StoreError(str(error))
