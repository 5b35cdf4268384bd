"""IR -> generated Python for one ruleset, mode and set of parameters.

optimise (fold, inline, zone analysis, hoist) -> lower the flow of
decisions to basic blocks -> generate one Python function per expression,
decision-free run of statements and basic block. Play never walks the IR."""
