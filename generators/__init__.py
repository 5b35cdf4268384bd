"""IR -> documents: rule summaries, quick-reference cards and card sheets.

Depends on the IR only (never on interpreter/).
"""
