"""rulelang interpreter: the checked IR -> running games.

Five sub-packages, each depending only on those above it:

    runtime/   what a running game is made of: the `State`, its `Layout`,
               the decision records, the RNG and the errors rules raise
    compiler/  IR -> generated Python, once per game configuration:
               optimise, lower the flow to basic blocks, generate code
    engine/    the game: `Game` (the public state API), what each role may
               see, invariants, logs and replays, saves
    agents/    whoever answers decisions: random, first, greedy, mcts,
               a person at the terminal, plug-ins; playing a game with them
    analysis/  many games: simulation and sweeps on every core or a Dask
               cluster, statistics, comparisons, plots, rows of results,
               the solver
"""
