"""Running many games without a person: bot-against-bot simulation and speed measurements.

`runner` plays games in worker processes (what `nekobako simulate` uses), `stats` turns their
results into win shares with confidence intervals, `bench` measures the engine and the bots.
"""
