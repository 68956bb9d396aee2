"""`python -m games.replay FILE`: play a machine hand record back step by step and check it.

The engine deals the hand from the record's options and deck, plays every recorded action and
must reach the recorded result. Prints each step (`--pause`: wait for Enter between steps), then
"the record holds" (exit 0), or the line that does not hold (exit 1). See docs/records.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from games.records import RecordError, check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.replay", description=__doc__)
    parser.add_argument("file", type=Path, help="a machine hand record (.hand)")
    parser.add_argument("--pause", action="store_true", help="wait for Enter after each step")
    args = parser.parse_args(argv)
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        parsed, steps = check(text)
    except RecordError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 1
    hand = parsed.hand
    record = hand.record
    names = hand.names or [f"seat {s}" for s in range(record.n_seats)]
    print(f"{record.game}, hand {record.round_no + 1}: {', '.join(names)}")
    for step in steps:
        who = names[step.seat] if step.seat < len(names) else f"seat {step.seat}"
        upcoming = step.round.to_act() if not step.round.finished else ()
        after = f"  (then {', '.join(names[s] for s in upcoming)})" if upcoming else ""
        print(f"{step.index:>4}. {who}: {step.notation}{after}")
        if args.pause:
            input()
    print(f"the record holds: points {list(hand.points)} after {len(steps)} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
