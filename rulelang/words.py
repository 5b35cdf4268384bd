"""The language's words: the reserved ones, and the ones read by their place.

The first version of the language reserved its keywords (`KEYWORDS`): no
ruleset can name anything with them. Every word the language took later is
*contextual* (`CONTEXTUAL`): it is a keyword where the grammar can read it
as one and the sentence reads that way, and otherwise a name, so a ruleset
written before the word was taken — a procedure `roll`, a variable
`random`, a zone `into` — reads as it always did. Where both readings parse
(`eliminate(1)`: the statement, or a call of the ruleset's own procedure
`eliminate`), the ruleset's own names win: the parser is told which of these
words the ruleset declares (`own`) and tries the name first for those, the
keyword first for the others. Version 2 reserves those words; the words taken
after it (`PLACED`) are read by their place in every version and reserved in
none, so a new statement never stops a file that checked from checking.

`feed` drives Lark's LALR parser token by token to do this: a keyword token
the parser cannot take where a name can go is a name, as Lark's contextual
lexer would make it; a contextual word the parser could take either way is
tried one way, and, if the statement it is in then fails, the other way.
"""
from __future__ import annotations

from lark import Token, Tree
from lark.exceptions import UnexpectedToken

KEYWORDS = frozenset("""
    move all to at draw from shuffle flip face let win lose end game as pass if elif
    else while until repeat times for chooses where exists count first last sum min max
    any and or not is of true false none case in
""".split())
# taken after the first version (boards, players, dice, abilities, and issue 33's): keywords by their place
CONTEXTUAL = frozenset("""
    ordered by descending eliminate roll into random trigger window reveal announce labelled
""".split())
# taken after version 2: keywords by their place in every version, never reserved, so that no file that
# named something with one stops checking (a file's own name is read first, as a version-1 file's are)
PLACED = frozenset("""
    swap with
""".split())
WORDS = KEYWORDS | CONTEXTUAL | PLACED  # every word the grammar reads as a keyword somewhere
TRIES = 256  # other readings tried in one snippet, at most (each is a statement parsed again)


def feed(parser, stream, own: frozenset = frozenset()):
    """Parse the tokens of `stream` with the interactive LALR `parser`; the tree, or
    UnexpectedToken at the error of the reading that went furthest. The tokens are taken as the
    parser needs them (a stray `)` fails the parse before the indenter counts it), and kept to
    read again the other way."""
    tokens: list[Token] = []
    choices: list[tuple[int, object, Token, list]] = []  # (token index, parser state, the other reading, _kept)
    best: UnexpectedToken | None = None
    best_at = -1
    tries = 0
    i = 0
    while True:
        try:
            while True:
                if i == len(tokens):
                    try:
                        tokens.append(next(stream))
                    except StopIteration:
                        break
                    except AssertionError:  # the indenter, at a `)` no `(` opened: the parse failed there
                        if best is not None:
                            raise best from None
                        raise
                token = tokens[i]
                if token.value in WORDS and token.type != "NAME":
                    token = _reading(parser, token, own, i, choices)
                parser.feed_token(token)
                i += 1
                if token.type == "_NL":
                    del choices[:]  # a statement read: its words are settled
            return parser.feed_eof(tokens[-1] if tokens else None)
        except UnexpectedToken as exc:
            if i > best_at:
                best, best_at = exc, i
            if not choices or tries >= TRIES:
                raise best from None
            tries += 1
            i, parser, token, kept = choices.pop()
            for children, n in kept:
                del children[n:]
            parser.feed_token(token)
            i += 1


def _reading(parser, token: Token, own: frozenset, i: int, choices: list) -> Token:
    """How to read a keyword token here: as the keyword, or as a name; a contextual word the
    parser could take either way is read one way, the other kept to try if that fails."""
    acceptable = parser.choices()
    name = Token.new_borrow_pos("NAME", token.value, token)
    if token.type not in acceptable:
        return name if "NAME" in acceptable else token
    if "NAME" not in acceptable or token.value in KEYWORDS:
        return token
    first, other = (name, token) if token.value in own else (token, name)
    copy = parser.copy(deepcopy_values=False)
    choices.append((i, copy, other, _kept(copy.parser_state.value_stack)))
    return first


def _kept(stack: list) -> list[tuple[list, int]]:
    """The trees on a parser's stack, and how many children each has. The copy of a parser
    shares them, and a reading that fails may have added to them since: Lark builds a list
    (`stmt+`) by appending to the tree before it. Cut back to this, they are as they were
    (without it, the statement before a word read again would be there twice)."""
    return [(v.children, len(v.children)) for v in stack if isinstance(v, Tree)]
