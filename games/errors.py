"""The one error an engine raises for a move the rules forbid."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules forbid. `rule` names the broken rule (a stable key, e.g.
    `not_your_turn`, `wrong_phase`, `unknown_card`); `message` says it in one English sentence.
    The state is left exactly as it was before the call."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class NotationError(IllegalAction):
    """Text that is not an action of this game's notation."""

    def __init__(self, text: str, detail: str = "") -> None:
        suffix = f" ({detail})" if detail else ""
        super().__init__("bad_notation", f"{text!r} is not a valid action{suffix}.")
        self.text = text
