"""The games: one package per game, each exposing `GAME` (found by name through
`nekobako.engine.registry`). Games are pure Python: no I/O, no clocks, no global random state."""
