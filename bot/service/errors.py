"""The one error the table service raises: an i18n key the glue translates, plus its params."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused request. `key` is an i18n message key (`not_seated`, `not_your_turn`,
    `stale_button`, `already_seated`, `table_full`, `not_host`, `illegal:<rule>`, …) and
    `params` fill its placeholders. The table is left exactly as it was."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key if not params else f"{key} {params}")
        self.key = key
        self.params = params

    @property
    def rule(self) -> str | None:
        """The engine rule for an `illegal:<rule>` error, else None."""
        return self.key.partition(":")[2] if self.key.startswith("illegal:") else None
