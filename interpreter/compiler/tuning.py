"""The compiler's tuning constants, in one place, each with what it trades.

None of them changes what a game is: the same rules play the same games
whatever their values (tests/test_naive_reference.py plays every pass against the
naive compile). They trade the time to compile, the size of the code and
the memory it takes against the time a game takes, or bound the cost of an
untrusted ruleset.
"""

# --- inlining (inlining.py, fold.py) --------------------------------------------------------
# A procedure whose copies beyond the first would add more IR nodes than this is called instead
# of inlined. Inlining lets folding and hoisting see through a call and spares the call; copying
# a big procedure to every place that calls it makes the code big: Hand of Fate's main program
# was 21,000 lines of Python (2.3 s to compile) with everything inlined, 9,100 at 2,000.
INLINE_BUDGET = 2000

# A define or procedure is written in place only while it alone, written out (what it calls that
# is called counting as one node), is at most this many IR nodes, and a define only while its
# copies beyond the first add at most this many; past either, it is called (inlining.py). Without
# a bound, rules where each define calls the one before twice grow twice a level: 20 levels of a
# 1 KB file took a minute to check. The bundled rulesets' biggest written-out define is under 400
# nodes, their biggest procedure (the race's take_turn) under 7,000.
INLINE_MOST = 10_000

# The zone analysis sees the rules with every define and procedure written in place while they
# are at most this many IR nodes so written out (Hand of Fate: 16,600), and past it with the calls
# inlining.py keeps: it is then less precise (a called procedure's zone parameters may be any zone).
ANALYSED_WRITTEN_OUT = 40_000

# --- folding (fold.py, rules.constant_evaluator) -------------------------------------------
# The work an expression of constants may take to be computed before play (the bindings of big
# binders, the spaces of a board each `distance` or `toward` may search), past which it is left
# to run time, where the step limit bounds it.
# A constant computed at compile time costs nothing in play; computing it costs the compile.
# `count(a in spaces(B), b in spaces(B) where distance(a, b) > k)` on a 100x100 board would fold
# for days.
FOLD_WORK = 200_000

# --- what counts as work (binders.py, prelude.py) ------------------------------------------
# A binder whose bindings (with those of the binders it runs inside) may be more than this
# counts them against the step limit as work (`_work`), so `exists a, b, c, d in box` over ten
# thousand cards stops at the limit instead of running for days; smaller ones cost nothing extra
# (every binder of the bundled rulesets). Lower: more code pays for the accounting.
FREE_BINDINGS = 1_000

# Work is bounded between two decisions (a limit's worth: `_overwork`), and over a whole game to this
# many limits' worth, so that rules asking a decision every round cannot spend a limit's work in each of
# a million rounds: a game goes through at most 100 million bindings (about a minute). A 10 by 10 Reversi
# uses four. Higher: a hostile ruleset runs longer before it is stopped.
WORK_WINDOWS = 100

# A lazy value of at most this many IR nodes that never fails is computed before the loops that
# ask it, instead of tested at every binding (hoist.cheap_and_safe): it costs about what the test does.
CHEAP_NODES = 7

# --- boards (expressions.py, boards.py) ----------------------------------------------------
# A board of more spaces than this is listed by chaining its spaces (one iterator a space)
# rather than by writing every space into one list literal: code stays short.
SPACES_WRITTEN_OUT = 256

# A board is searched card by card (the cards that can reach it, each tested for being there)
# when its spaces are at least this many times more than those cards: a race track of 72 spaces
# and 4 cubes. Looking at a space and at a card cost about the same.
FEW_CARDS = 4

# `exists`, `all` and `any` over a list known before play (a board's lines, its spaces) are written
# out item by item (unroll.py) while the whole, every quantifier inside written out too, is at
# most this many IR nodes: the 69 lines of four on a 7 by 6 board, 4 spaces a line, are ~4,100.
# Higher: bigger code (and compiling), for quantifiers whose loop costs little beside their tests.
UNROLLED_NODES = 5_000
# ... and all of one mode's rules at most this many (every copy of an inlined define counted):
# compiling stays bounded however many such questions the rules ask.
UNROLLED_TOTAL = 20_000

# A range of constants shorter than this is a constant list in the code (`1..8`); a longer one is
# made when it is asked for (it may never be).
CONSTANT_RANGE = 1000

# --- merging blocks (merge.py) -------------------------------------------------------------
# No function grows past this many lines by taking in the blocks it leads to, nor is indented
# by more than MERGED_DEPTH `if`s: a bigger function's frame costs at every call, and the
# locals of copied code go back into the frame. A block that several blocks lead to is copied
# into each when its code is at most SHARED_BLOCK_LINES lines. Merging more (119 -> 83 block
# calls a Gobbots game) made games 4% slower.
MERGED_LINES = 400
MERGED_DEPTH = 4
SHARED_BLOCK_LINES = 40

# --- memos ---------------------------------------------------------------------------------
# Answers of distance and toward kept per place in the rules before the memo starts afresh:
# memory against searching again.
WAYS_REMEMBERED = 100_000

# The lines of n spaces in a row on a grid (`lines(B, n)`), kept per grid, n and gaps: a few
# grids and lengths in any game; more are made again when asked.
GRID_LINES_KEPT = 256

# --- constants in the code (expressions.py) ------------------------------------------------
# A whole number within this bound is written into the code as a literal; a bigger one (a number
# may have up to `--limit number_digits` digits) is read from the unit's table of constants, as
# every value of a ruleset but small numbers is: the generated text stays short.
LITERAL_NUMBER = 10**9
