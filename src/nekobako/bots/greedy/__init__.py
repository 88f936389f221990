"""The `greedy` level: one hand-written heuristic per game (`greedy/<game>.py`, class `GreedyBot`).

Heuristics read only the view and the legal actions' notation, so they need no search and no rng
except to break exact ties deterministically.
"""
