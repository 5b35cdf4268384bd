"""Many games: simulation and design sweeps on every core or a Dask
cluster with the same numbers for any number of workers, the tally of
outcomes with intervals, paired comparisons, sweep targets, plots, rows of
results per game, and the exhaustive solver."""
