"""The parts of the table service are given what they use when they are built: none of them
names the service, so what a part depends on reads off its constructor."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.service

PARTS = ["tables", "play", "timers", "followup", "restore", "seating", "watching", "_locks"]
SERVICE = Path(bot.service.__file__).parent


def names_the_service(module: str) -> list[str]:
    tree = ast.parse((SERVICE / f"{module}.py").read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "bot.service.service":
            found.append(f"imports {node.module} (line {node.lineno})")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "service"
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            found.append(f"self.service (line {node.lineno})")
    return found


def test_no_part_reaches_the_others_through_the_service() -> None:
    reached = {module: names_the_service(module) for module in PARTS}
    assert {module: found for module, found in reached.items() if found} == {}
