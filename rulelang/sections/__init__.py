"""The sections of a ruleset file, one module each: how each is read into
unchecked IR. `reader` is what every section is given (the file, the
problems found, the names declared); `values` (`types:`, `params:`, `dice:`,
`vars:`), `players` (`players:`, `roles:`), `zones`, `functions` (`define:`,
`procedures:`), `modes` (and its `quick:` pages, `quick`), `rulings`. The
card tables (`cards:`), boards drawn as maps and graphs, and `events:` and
`abilities:` are read by `cardtable`, `maps` and `abilities`; `loader` reads
the file, section by section, in the order their names depend on.
"""
