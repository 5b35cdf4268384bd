"""Many games: simulation on every core with the same numbers for any
number of jobs, the tally of outcomes with intervals, paired comparisons,
plots, rows of results per game, and the exhaustive solver."""
