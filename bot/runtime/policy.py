"""Bot players for any game, at two levels.

- `simple`: the game's `games.<name>.bots.policy` module (`choose_action(round, seat, rng)`);
- `strong`: its `games.<name>.bots.strong` module when it has one, else the simple policy.

Timeouts always play the simple module's `default_action(round, seat)` (a safe move), and a
game without a policy module plays a random legal move (its first one on timeout).

A strong policy whose `choose_action` takes a `budget` (seconds of search, a cap) is given a
smaller one by the bot workers' pool under load (`SeatPolicy.choose(..., budget=)`: its share
of the time with the decisions waiting, `bot.runtime.pool`), never longer than its own
default. A search takes it (a small budget stops it at its minimal search, a few
milliseconds; the games' READMEs say what that costs in strength); a strong bot that decides
in under a millisecond need take none."""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, Literal, get_args

from games.contract import Game, Round
from games.registry import bots_module_name

BotLevel = Literal["simple", "strong"]
BOT_LEVELS: tuple[str, ...] = get_args(BotLevel)
DEFAULT_BOT_LEVEL: BotLevel = "strong"
# a guided hand's bot players (`/<game> learn`): they play the moves of the game's lesson
# script (`games.<game>.lesson`), and so does a timeout; never offered to a command
LESSON_LEVEL = "lesson"
TABLE_BOT_LEVELS: tuple[str, ...] = (*BOT_LEVELS, LESSON_LEVEL)
BOTS_OPTION = "bots"  # the table option's key, stored beside the game's options
# a table's own turn timer (a tournament's), stored beside them too; absent: the guild's
TURN_OPTION = "turn_seconds"


class SeatPolicy:
    """Picks actions for a seat nobody is clicking for: a bot player, an away player, or a
    player whose turn timed out (the safe default move)."""

    def __init__(self, module: ModuleType | None, chooser: ModuleType | None = None) -> None:
        self._choose: Callable[..., Any] | None = getattr(chooser or module, "choose_action", None)
        self._default: Callable[..., Any] | None = getattr(module, "default_action", None)
        self._default_takes_rng = (
            self._default is not None and len(inspect.signature(self._default).parameters) >= 3
        )
        self._own_budget: float | None = None  # the chooser's default budget (None: no cap)
        self._takes_budget = False
        if self._choose is not None:
            budget = inspect.signature(self._choose).parameters.get("budget")
            if budget is not None:
                self._takes_budget = True
                default = budget.default
                self._own_budget = default if isinstance(default, int | float) else None

    @property
    def searches(self) -> bool:
        """Does it search (within a budget: its CPU grows with the time it is given)? Else a
        heuristic, which decides in well under a millisecond."""
        return self._takes_budget

    def choose(
        self,
        round_: Round[Any, Any, Any],
        seat: int,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> Any:
        """The bot's move. `budget` (seconds, None: the policy's own) caps a searching
        policy's time: it searches for the smaller of its own budget and this one."""
        if self._choose is None:
            return rng.choice(round_.legal_actions(seat))
        if budget is None or not self._takes_budget:
            return self._choose(round_, seat, rng)
        if self._own_budget is not None:
            budget = min(budget, self._own_budget)
        return self._choose(round_, seat, rng, budget=budget)

    def default(self, round_: Round[Any, Any, Any], seat: int, rng: random.Random) -> Any:
        """A safe move for a player who let the timer run out."""
        if self._default is not None:
            if self._default_takes_rng:
                return self._default(round_, seat, rng)
            return self._default(round_, seat)
        return round_.legal_actions(seat)[0]


_POLICIES: dict[tuple[str, str], SeatPolicy] = {}  # bounded: two per game the bot plays


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the module exists but one of its imports is missing
            raise
        return None


def policy_for(game: Game[Any, Any, Any], level: str = DEFAULT_BOT_LEVEL) -> SeatPolicy:
    """The bot policy of this game at this level (`simple`, `strong`, or `lesson`: the
    script of its guided hand)."""
    key = (game.name, level)
    policy = _POLICIES.get(key)
    if policy is None and level == LESSON_LEVEL:
        script = _module(f"games.{game.name}.lesson")
        policy = _POLICIES[key] = SeatPolicy(script, script)
    if policy is None:
        simple = _module(bots_module_name(game.name, "simple"))
        strong = _module(bots_module_name(game.name, "strong")) if level == "strong" else None
        policy = _POLICIES[key] = SeatPolicy(simple, strong)
    return policy
