"""A training loop (a loop that builds a graph, calls backward() and updates .data) is a sequence
of iterations: each iteration's graph is what is drawn and counted against the value limit, the
loss of every iteration is reported, and any one of them can be drawn."""

from __future__ import annotations

import pytest

from app.lecture import DEMO, DEMO_OPTIMIZATION_CELL, LECTURE_NOTEBOOK_NEURON, LECTURE_TRAINING
from app.lecture.notebook import LECTURE_DATASET_CELL, LECTURE_MLP_CELL, LECTURE_TRAINING_CELL
from engine import parse
from engine.errors import GradstepError
from engine.graph import topological_order
from engine.language import Program
from engine.limits import MAX_NODES
from engine.tracing import key, outline


def run(source: str, iteration: int | None = None) -> Program:
    program = parse(source, iteration=iteration)
    assert isinstance(program, Program)
    return program


def test_the_lectures_twenty_iterations_run_and_each_loss_is_the_one_it_printed() -> None:
    program = run(LECTURE_TRAINING)
    assert len(program.losses) == 20 and program.iteration == 19
    printed = [text for _, text in program.console]
    assert printed == [f"{k} {loss!r}" for k, loss in enumerate(program.losses)]
    assert program.losses[-1] < program.losses[0] / 100  # it learns: 7.73 down to 0.0215
    assert program.output.data == program.losses[-1]
    graph = topological_order(program.output)
    assert len(graph) <= MAX_NODES < 20 * len(graph)  # all 20 graphs would be over the limit


@pytest.mark.parametrize("k", [0, 7, 18])
def test_an_iteration_is_drawn_with_its_own_numbers_and_its_own_update(k: int) -> None:
    this, following = run(LECTURE_TRAINING, k), run(LECTURE_TRAINING, k + 1)
    assert this.iteration == k and this.losses == following.losses
    assert this.output.data == this.losses[k]
    assert len(this.updates) == 41  # p.data += -0.1 * p.grad, once for each parameter
    # what iteration k's update wrote is what iteration k + 1's graph reads
    after = {this.labels.get(u.value): u.after for u in this.updates}
    read = {following.labels.get(u.value): u.before for u in following.updates}
    assert after.keys() == read.keys()
    assert after == pytest.approx(read, rel=0, abs=0)
    # and each update's leaf holds, in the graph drawn, the number from before it
    assert all(u.value.data == u.before for u in this.updates)


def test_every_iteration_has_one_structure_so_the_page_keeps_its_layout() -> None:
    first, second, last = run(LECTURE_TRAINING, 0), run(LECTURE_TRAINING, 1), run(LECTURE_TRAINING)
    assert key(first, outline(first)) == key(second, outline(second)) == key(last, outline(last))
    assert [c.id for c in first.calls] == list(range(len(first.calls)))
    assert first.labels[first.output] == last.labels[last.output] == "loss"


def test_a_loop_keeps_one_iterations_graph_in_memory_not_all() -> None:
    program = run(LECTURE_TRAINING)
    assert len(program.spans) == len(topological_order(program.output))


def test_an_iteration_asked_for_that_is_not_there_is_a_clear_error() -> None:
    with pytest.raises(GradstepError) as err:
        run(LECTURE_TRAINING, 20)
    assert err.value.message == "this program has no iteration 20: its loop ran 20 (0 to 19)"
    with pytest.raises(GradstepError) as err:
        run("a = Value(2.0)\nb = a * a\nb.backward()", 0)
    assert "has no training loop" in err.value.message


def test_backward_twice_on_one_graph_is_one_iteration() -> None:
    program = run("a = Value(2.0)\nb = a * a\nb.backward()\nb.backward()\nprint(a.grad)")
    assert program.losses == () and program.iteration is None
    assert program.console == ((5, "8.0"),)  # grads accumulate: 4 + 4


def test_micrograd_demos_hundred_iterations_run() -> None:
    program = run("\n".join([DEMO, DEMO_OPTIMIZATION_CELL]))
    assert len(program.losses) == 100
    assert program.console[-1][1].startswith("step 99 loss ")
    assert repr(program.losses[-1]) in program.console[-1][1]


NOTEBOOK_TRAINING = "\n".join(
    [LECTURE_NOTEBOOK_NEURON, LECTURE_MLP_CELL, "n = MLP(3, [4, 4, 1])", LECTURE_DATASET_CELL,
     LECTURE_TRAINING_CELL]
)  # fmt: skip


def test_the_notebooks_neuron_pass_is_not_an_iteration_of_its_training_loop() -> None:
    program = parse(NOTEBOOK_TRAINING, engine="gradstep")
    assert isinstance(program, Program)
    assert len(program.losses) == 20  # o.backward() of the neuron is written elsewhere
    first = parse(NOTEBOOK_TRAINING, engine="gradstep", iteration=0)
    assert first.output.data == program.losses[0] == run(LECTURE_TRAINING).losses[0]


def test_a_training_loop_of_the_programs_own_engine_says_which_graph_is_drawn() -> None:
    program = parse(NOTEBOOK_TRAINING)
    assert not isinstance(program, Program)  # its own class Value ran
    assert (
        "backward() ran on 21 graphs: this is the last one; gradstep's Value (the engine "
        "switch) steps through each"
    ) in program.notes
    with pytest.raises(GradstepError) as err:
        parse(NOTEBOOK_TRAINING, iteration=3)
    assert "drawn with gradstep's Value" in err.value.message
