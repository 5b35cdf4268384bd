"""The questions the editors ask of a ruleset: one analysis, three front doors.

`rulelang check --format json`, the language server (`langserver/`) and the
browser playground ask the same questions of the checked IR through this
package — what is wrong and where, what is at this position, what it means
in English, where it is defined and used, what may be written here:

    from queries import analyse
    a = analyse(text, "rulesets/my-variant.yaml")
    a.problems, a.hover(12, 9), a.definition(12, 9), a.completions(12, 9)

It sits on the top floor beside `cli/`: it reads the front end (`rulelang`)
and the English generator (`generators`); nothing but the front doors imports it.
"""
from .analysis import Analysis, analyse
from .places import Place
from .problems import Problem
from .symbols import Occurrence, Symbol

__all__ = ["Analysis", "Occurrence", "Place", "Problem", "Symbol", "analyse"]
