"""Benchmark, soak and strength scripts: programs that print numbers, outside the product.

They measure the engines, the store and the bot from the outside, so nothing in `bot/`,
`games/` or `storage/` imports them (an import contract says so) and the installed package does
not ship them: run them from a checkout. Each has a short mode the test suite runs
(tests/benchmarks/), so none rots unseen. The figures they printed, with date, machine, commit
and command, are in docs/performance.md. `python -m benchmarks` lists them.
"""
