"""What gradstep writes about a learner's own engine: each ``.grad`` write of their backward pass
with the line that made it and the true gradient beside it, the titles of their steps, and one
sentence per finding saying where their gradient went wrong and why. A wrong value is never
presented as the chain rule (docs/notation.md)."""

from __future__ import annotations

from engine.notation.lines import Num, Parts, Ref, joined
from engine.notation.naming import grad_of, ref


def write_text(grad_name: str, before: Ref, after: Ref, correct: Ref | None) -> Parts:
    """``a.grad: 1.0000 → 2.0000   (correct: 3.0000)``: ``correct`` is what a correct pass
    would hold after this write (the true gradient once all its shares are in)."""
    parts: list[str | Num] = [f"{grad_name}: ", (*before, "n"), " → ", (*after, "n")]
    if correct is not None:
        parts += ["   (correct: ", (*correct, "n"), ")"]
    return joined(parts)


def code_text(line: int, text: str) -> Parts:
    """``line 14: self.grad += out.grad``."""
    return (f"line {line}: {text.strip()}",)


def step_title(kind: str, owner: str, attr: str, where: str) -> str:
    """What a step of their backward pass is: the seed, a call of a node's kept function, or a
    statement outside one (``where``: ``line 14`` or the statement)."""
    if kind == "seed":
        return f"the seed: {grad_of(owner)} set · {where}"
    if kind == "call":
        return f"{ref(owner)}.{attr}() · {where}"
    return where


def silent_note(owner: str, attr: str) -> Parts:
    return (f"{ref(owner)}.{attr}() wrote no gradient",)


def finding_text(
    kind: str, node: str, user: str, uses: str, rule: str, output: str, attr: str, silent: int
) -> str:
    """The sentence of a finding: a template whose ``{got}``, ``{expected}``, ``{before}``,
    ``{added}``, ``{local}``, ``{upstream}``, ``{true_upstream}``, ``{product}`` and ``{share}``
    are numbers (engine.own fills them), and ``{=}`` the sign between the two numbers before it,
    multiplied, and the one after it (``=``, or ``≈`` when the product shown does not reproduce:
    engine.notation.Relation); ``rule``: the true local rule, when gradstep knows it;
    ``output``: the output's name (the seed belongs to it); ``attr``: the name of the function
    the user's node keeps (``_backward``); ``silent``: the line of that function when the step
    wrote no gradient at all (0 when it wrote some)."""
    grad, user_grad, seed = grad_of(node), grad_of(user), grad_of(output)
    node, user = ref(node), ref(user)
    said = f" ({rule})" if rule else ""
    texts = {
        "overwrite": f"{grad} became {{got}} here; the true gradient is {{expected}}: {node} is "
        f"used {uses}, so its contributions must add up (+=, not =)",
        "local": f"{grad} became {{got}} here: this line adds {{added}}, where "
        f"∂{user}/∂{node} · {user_grad} = {{local}} × {{upstream}}{{=}}{{product}}{said}",
        "order": f"{grad} became {{got}} here, from {user_grad} = {{upstream}}, which was not "
        f"whole yet: it is {{true_upstream}} once every node that uses {user} has sent its "
        f"gradient. Call each node's {attr} after the nodes that use it: in reverse "
        "topological order",
        "repeat": f"{grad} became {{got}} here, where it should have stayed {{expected}}: "
        f"{user}.{attr}() ran a second time and sent its gradient again. Each node's step must "
        "run once: a topological order lists each node once (keep a visited set)",
        "seed": f"the backward pass began with {seed} = {{upstream}}: set the output's gradient "
        f"to 1 first ({seed} = 1)",
        "zero": f"{grad} still held {{before}} from an earlier backward() when this one began, "
        "and this line added onto it: set every grad to 0 before calling backward() again",
        "missing": f"{user}'s step never sent {node} its share: ∂{user}/∂{node} = {{local}}"
        f"{said}, so {grad} should have grown by {{share}}"
        if not silent
        else f"{user}.{attr}() wrote no gradient at all: the function it ran (line {silent}) "
        f"sends nothing, so {grad} never got its share, ∂{user}/∂{node} = {{local}}{said}, "
        f"{{share}} in all. Does the operation that made {user} set {user}.{attr}?",
        "upstream": f"{grad} went wrong here because {user_grad} was already wrong "
        "({upstream}, true {true_upstream})",
        "hand": f"{grad} was set to {{got}} here; the true gradient is {{expected}}",
    }
    return texts.get(
        kind,
        f"{grad} is {{got}}, the true gradient {{expected}}: no step of the backward pass sent "
        "it any",
    )
