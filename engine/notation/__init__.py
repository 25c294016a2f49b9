"""How the chain rule is written (docs/notation.md): every name, formula and explanation line
a student reads, made once, here, as *parts*.

A part is text (``"n.grad += "``) or a reference to a number (``Num``): which number of the
trace (a value's data, a contribution's local derivative, ...) and how it is written (plain, a
factor bracketed when negative or written with an exponent, or a whole number). The words
depend on the program's structure alone; the numbers they refer to change with its values. The
trace turns each reference into a slot of its numbers (engine.trace), and every renderer (the
page, the embed, the offline file, the exports' captions, the narration) formats them with the
page's decimals and the one number formatter, and never re-derives a name or a formula.

``naming``: how values are named; ``lines``: the chain rule's lines.
"""

from engine.notation.lines import (
    ContributionText,
    Kind,
    LineRefs,
    Num,
    Operand,
    Part,
    Parts,
    Ref,
    Relation,
    Result,
    Use,
    accumulates_note,
    becomes,
    constant_note,
    contribution_text,
    expression,
    formula,
    forward_text,
    grad_sum,
    joined,
    output_sum,
    partial,
    seed_text,
    text_of,
    update_text,
)
from engine.notation.naming import (
    BOX_NAME_CHARS,
    code_name,
    constant_name,
    grad_of,
    made_name,
    numbered_name,
    partial_sum_name,
    position_markers,
    ref,
    uses_text,
)

__all__ = [
    "BOX_NAME_CHARS",
    "ContributionText",
    "Kind",
    "LineRefs",
    "Num",
    "Operand",
    "Part",
    "Parts",
    "Ref",
    "Relation",
    "Result",
    "Use",
    "accumulates_note",
    "becomes",
    "code_name",
    "constant_name",
    "constant_note",
    "contribution_text",
    "expression",
    "formula",
    "forward_text",
    "grad_of",
    "grad_sum",
    "joined",
    "made_name",
    "numbered_name",
    "output_sum",
    "partial",
    "partial_sum_name",
    "position_markers",
    "ref",
    "seed_text",
    "text_of",
    "update_text",
    "uses_text",
]
