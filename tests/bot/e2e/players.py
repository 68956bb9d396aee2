"""Players for end-to-end tests: they read the components of the messages they see and click.

A player never calls the bot's service to act: like a person, it presses the buttons and picks
the select options that the table message and its own ephemeral messages offer. Only *which*
offered action to take is decided here, by a preference list of notations.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.local.records import LocalInteraction, LocalUser, iter_components
from bot.local.server import LocalDiscord
from bot.render.actions import under

BUTTON = 2
SELECT = 3
WORDS_TIMEOUT = 30.0  # seconds: a loaded machine may take long to answer; a hang still fails


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a player can do on a message: a button, or one option of a select."""

    message_id: int
    custom_id: str
    component_type: int
    label: str
    value: str | None = None  # the option value of a select
    # A pick (a select of several values, `m=<prefix>`): the values chosen together, and every
    # value it offers (a chooser may choose others among them).
    values: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        """What the choice means: the option value, or what follows `ct:<t>:<r>:` in the id."""
        if self.value is not None:
            return self.value
        parts = self.custom_id.split(":", 3)
        return parts[3] if len(parts) == 4 else self.custom_id

    @property
    def notation(self) -> str | None:
        """The game action a `p=` button plays, or a pick with its values (None for other
        components)."""
        action = self.action
        if self.value is not None:
            return action
        if self.values and action.startswith("m="):
            return " ".join((action[2:], *self.values))
        return action[2:] if action.startswith("p=") else None


Chooser = Callable[[Sequence[Choice]], "Choice | None"]


def choices(message: dict[str, Any]) -> list[Choice]:
    found: list[Choice] = []
    message_id = int(message["id"])
    for component in iter_components(message):
        if component.get("disabled"):
            continue
        if component.get("type") == BUTTON and component.get("custom_id"):
            label = str(component.get("label") or "")
            found.append(Choice(message_id, component["custom_id"], BUTTON, label))
        elif component.get("type") == SELECT and _is_pick(str(component["custom_id"])):
            found += _picks(message_id, component)
        elif component.get("type") == SELECT:
            for option in component.get("options") or []:
                found.append(
                    Choice(
                        message_id,
                        component["custom_id"],
                        SELECT,
                        str(option.get("label", "")),
                        str(option["value"]),
                    )
                )
    return found


def _is_pick(custom_id: str) -> bool:
    parts = custom_id.split(":", 3)
    return len(parts) == 4 and parts[3].startswith("m=")


def _picks(message_id: int, select: dict[str, Any]) -> list[Choice]:
    """A select of several values as a player uses it: its fewest first options, and its most."""
    offered = tuple(str(option["value"]) for option in select.get("options") or [])
    label = str(select.get("placeholder") or "")
    found: list[Choice] = []
    for count in (int(select.get("min_values", 1)), int(select.get("max_values", 1))):
        values = offered[: max(1, count)]
        if all(c.values != values for c in found):
            found.append(
                Choice(message_id, select["custom_id"], SELECT, label, None, values, offered)
            )
    return found


def verb_choice(message: dict[str, Any], verb: str) -> Choice | None:
    """The button of a table verb (`join`, `start`, `hand`, `next`, …) on a message."""
    for choice in choices(message):
        if choice.component_type == BUTTON and choice.action == verb:
            return choice
    return None


def pick(options: Sequence[Choice], preference: Sequence[str]) -> Choice | None:
    """The offered game action ranked first by `preference` (notation prefixes), or the menu
    step leading to it, else the first offered action; navigation buttons (`n=`) only when
    nothing playable is offered."""
    playable = [c for c in options if c.notation is not None]
    steps = [(prefix, c) for c in options if c.notation is None and (prefix := step_toward(c))]
    for wanted in preference:
        for choice in playable:
            notation = choice.notation or ""
            if notation == wanted or notation.startswith(wanted + " "):
                return choice
        for prefix, choice in steps:  # a menu step toward it (e.g. "Swap your card 2…")
            if under([wanted], prefix) or prefix.startswith(wanted + " "):
                return choice
    if playable:
        return playable[0]
    navigation = [c for c in options if c.action.startswith("n=") and c.action != "n="]
    return navigation[0] if navigation else None


def pick_at_random(
    options: Sequence[Choice], rng: random.Random, *, rare: tuple[str, ...] = ("dutch",)
) -> Choice | None:
    """Any offered game action, uniformly (seeded): reaches selects, powers and rare moves.
    `rare` actions (ending the round) are taken one time in five, so rounds last a while.
    Navigation (`n=`, e.g. back or refresh) only when nothing playable is offered."""
    playable = [c for c in options if c.notation is not None]
    common = [c for c in playable if (c.notation or "").split(" ")[0] not in rare]
    # A rare move may first be a step that asks for it ("Call Dutch…" opens the call's button).
    asking = [c for c in options if c.notation is None and step_toward(c) in rare]
    rare_moves = [c for c in playable if c not in common] + asking
    if common and (not rare_moves or rng.random() < 0.8):
        return rng.choice(common)
    if rare_moves:
        return rng.choice(rare_moves)
    navigation = [c for c in options if c.action.startswith("n=") and c.action != "n="]
    return rng.choice(navigation) if navigation else None


def step_toward(choice: Choice) -> str | None:
    """The menu prefix a choice opens (a select option naming a prefix, an `n=<prefix>`
    button), else None; for an option that is a whole action this is the action itself."""
    if choice.value is not None:
        return choice.value
    action = choice.action
    return action[2:] if action.startswith("n=") and action != "n=" else None


def toward(notation: str) -> Chooser:
    """A chooser that plays exactly `notation`: its button or option when offered, else the
    menu step (select option or `n=` button) of the longest prefix leading to it."""

    def choose(offered: Sequence[Choice]) -> Choice | None:
        for choice in offered:
            if choice.notation == notation:
                return choice
        for choice in offered:
            values = _pick_toward(choice, notation)
            if values is not None:
                return replace(choice, values=values)
        steps = [
            (len(prefix), choice)
            for choice in offered
            if (prefix := step_toward(choice)) and under([notation], prefix)
        ]
        return max(steps, key=lambda step: step[0])[1] if steps else None

    return choose


def _pick_toward(choice: Choice, notation: str) -> tuple[str, ...] | None:
    """The values of a pick (`m=<prefix>`) that play `notation` (`<prefix>` and cards named
    as its options name them, a copy as `7S#1` or simply `7S` again), else None."""
    prefix = choice.action[2:] if choice.action.startswith("m=") else ""
    if not choice.offered or not notation.startswith(prefix + " "):
        return None
    left = list(choice.offered)
    values: list[str] = []
    for word in notation[len(prefix) + 1 :].split():
        match = next((v for v in left if v == word), None) or next(
            (v for v in left if v.split("#")[0] == word.split("#")[0]), None
        )
        if match is None:
            return None
        left.remove(match)
        values.append(match)
    return tuple(values)


async def use(fake: LocalDiscord, user: LocalUser, choice: Choice) -> LocalInteraction:
    """Click the button, or choose the option; return the answered interaction."""
    if choice.values:
        interaction = await fake.choose(
            user, choice.message_id, choice.custom_id, list(choice.values)
        )
    elif choice.component_type == SELECT:
        assert choice.value is not None
        interaction = await fake.choose(user, choice.message_id, choice.custom_id, [choice.value])
    else:
        interaction = await fake.click(user, choice.message_id, choice.custom_id)
    return await interaction.wait_answered()


def answer_message(fake: LocalDiscord, interaction: LocalInteraction) -> dict[str, Any] | None:
    """The message the interaction's answer created or edited last (None: none)."""
    for request in reversed(interaction.requests):
        if request.shows_message and request.message_id in fake.messages:
            return fake.message(request.message_id)
    return None


def answer_text(fake: LocalDiscord, interaction: LocalInteraction) -> str:
    """All the words of the interaction's answers (content, embed titles and descriptions, a
    Components V2 answer's text displays)."""
    parts: list[str] = []
    for request in interaction.requests:
        payload = request.payload or {}
        data = payload.get("data", payload) if isinstance(payload, dict) else {}
        if not isinstance(data, dict):
            continue
        parts.append(str(data.get("content") or ""))
        for embed in data.get("embeds") or []:
            parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += layout_lines(data)
    return "\n".join(p for p in parts if p)


async def answered_text(fake: LocalDiscord, interaction: LocalInteraction) -> str:
    """`answer_text` once the interaction has an answer with words: a deferred answer (the
    bot "thinking" while it reads the store) has none until its follow-up comes, however
    late."""
    await fake.wait_for(
        lambda: bool(answer_text(fake, interaction)),
        timeout=WORDS_TIMEOUT,
        what=f"an answer with words to {interaction.describe()}",
    )
    return answer_text(fake, interaction)


def message_text(message: dict[str, Any]) -> str:
    """Every word a message shows: content, and each embed's title, description, field names
    and values and footer, one part a line; a Components V2 message's text displays, a line
    each line, the heading and small-print marks and a field name's bold left out."""
    parts = [str(message.get("content") or "")]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for field in embed.get("fields") or []:
            parts += [str(field.get("name") or ""), str(field.get("value") or "")]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
    parts += layout_lines(message)
    return "\n".join(parts)


def text_displays(message: dict[str, Any]) -> list[str]:
    """The texts of a Components V2 message's text displays, in order (none: not V2)."""
    return [str(c.get("content") or "") for c in iter_components(message) if c.get("type") == 10]


def layout_lines(message: dict[str, Any]) -> list[str]:
    """A V2 message's lines as an embed held them: `### title`, `-# footer` and a field's
    `**name**` line read as the words they mark."""
    lines = []
    for text_ in text_displays(message):
        for line in text_.split("\n"):
            for mark in ("### ", "-# "):
                if line.startswith(mark):
                    line = line[len(mark) :]
            name = line[2:-2]
            if len(line) > 4 and line == f"**{name}**" and "**" not in name:
                line = name
            lines.append(line)
    return lines


def picture_url(message: dict[str, Any]) -> str | None:
    """The picture a message shows: its embed's image, or its first media gallery's."""
    for embed in message.get("embeds") or []:
        if (embed.get("image") or {}).get("url"):
            return str(embed["image"]["url"])
    for component in iter_components(message):
        if component.get("type") == 12 and component.get("items"):
            return str(component["items"][0]["media"]["url"])
    return None


def small_print(message: dict[str, Any]) -> str | None:
    """A message's footer: its embed's, or a V2 text display of small print (`-# `)."""
    for embed in message.get("embeds") or []:
        return (embed.get("footer") or {}).get("text")
    for text_ in text_displays(message):
        if text_.startswith("-# ") and "\n" not in text_:
            return text_[len("-# ") :]
    return None


def field_value(message: dict[str, Any], name: str) -> str | None:
    """The value of the embed field called `name` (None: the message has no such field); in
    a V2 message, the block of a text display under the line `**name**`."""
    for embed in message.get("embeds") or []:
        for field in embed.get("fields") or []:
            if field.get("name") == name:
                return str(field.get("value") or "")
    for text_ in text_displays(message):
        for block in text_.split("\n\n"):
            head, _, value = block.partition("\n")
            if head == f"**{name}**":
                return value
    return None
