"""A training loop (a loop that builds a graph, calls backward() and updates .data) is a sequence
of iterations: it opens on its first, each iteration's graph is what is drawn and counted
against the value limit, the loss of every iteration is reported, its first two are recorded in
the run and any other is drawn by running the program again with that one watched."""

from __future__ import annotations

import pytest

from app.lecture import DEMO, DEMO_OPTIMIZATION_CELL, LECTURE_NOTEBOOK_NEURON, LECTURE_TRAINING
from app.lecture.notebook import LECTURE_DATASET_CELL, LECTURE_MLP_CELL, LECTURE_TRAINING_CELL
from engine import Program, run, runner, trace
from engine.errors import GradstepError
from engine.limits import MAX_NODES
from engine.runner import loop_of, run_record
from engine.trace import key, outline


def output_data(program: Program) -> float:
    return program.graph.data[program.graph.output]


def test_the_lectures_twenty_iterations_run_and_each_loss_is_the_one_it_printed() -> None:
    program = run(LECTURE_TRAINING)
    assert len(program.losses) == 20 and program.iteration == 0  # it opens on the first
    printed = [text for _, text in program.console]
    assert printed == [f"{k} {loss!r}" for k, loss in enumerate(program.losses)]
    assert program.losses[-1] < program.losses[0] / 100  # it learns: 7.73 down to 0.0215
    assert output_data(program) == program.losses[0]
    size = len(program.graph.parents)
    assert size <= MAX_NODES < 20 * size  # all 20 graphs would be over the limit


@pytest.mark.parametrize("k", [0, 7, 18])
def test_an_iteration_is_drawn_with_its_own_numbers_and_its_own_update(k: int) -> None:
    this, following = run(LECTURE_TRAINING, iteration=k), run(LECTURE_TRAINING, iteration=k + 1)
    assert this.iteration == k and this.losses == following.losses
    assert output_data(this) == this.losses[k]
    updates, read = this.graph.updates, following.graph.updates
    assert len(updates) == 41  # p.data += -0.1 * p.grad, once for each parameter
    # what iteration k's update wrote is what iteration k + 1's graph reads
    names, next_names = this.graph.names, following.graph.names
    assert [names[u.node] for u in updates] == [next_names[u.node] for u in read]
    assert [u.after for u in updates] == [following.graph.data[u.node] for u in read]
    assert [u.after for u in updates] == [u.before for u in read]
    # and each update's leaf holds, in the graph drawn, the number from before it
    assert [this.graph.data[u.node] for u in updates] == [u.before for u in updates]


def test_every_iteration_has_one_structure_so_the_page_keeps_its_layout() -> None:
    first, second, last = (run(LECTURE_TRAINING, iteration=k) for k in (0, 1, 19))
    assert key(first, outline(first)) == key(second, outline(second)) == key(last, outline(last))
    calls = first.graph.call_list
    assert [c.id for c in calls] == list(range(len(calls)))
    for p in (first, last):
        t = trace(p)
        assert t.structure.nodes[t.structure.output].name == "loss"


def test_every_iteration_of_gradsteps_values_is_answered_from_the_first_run() -> None:
    runner._records.clear()
    record = run_record(LECTURE_TRAINING, {})
    loop = [record.passes[i] for i in loop_of(record)]
    assert len(loop) == 20 and all(p.watched and p.graph is not None for p in loop)
    printed = [text for _, text in record.console]
    for k in (2, 11, 19):
        program = run(LECTURE_TRAINING, iteration=k)
        assert program.iteration == k and program.watched is not None
        assert output_data(program) == program.losses[k] == loop[k].loss
        assert printed[k] == f"{k} {output_data(program)!r}"
        # past the first two, the numbers alone were kept: the graph is the watched one's,
        # its local derivatives computed again from its data, its update step its own
        watched = (
            run_record(LECTURE_TRAINING, {}, "auto", program.watched)
            .passes[loop_of(record)[k]]
            .graph
        )
        g = program.graph
        assert watched is not None and g.parents == watched.parents and g.names == watched.names
        assert (g.data, g.grad) == (watched.data, watched.grad)
        flat = [d for ds in g.locals for d in ds]  # as computed again: a libm's last bit
        assert flat == pytest.approx([d for ds in watched.locals for d in ds], rel=1e-12)
        assert g.updates == watched.updates and len(g.updates) == 41
    assert len([key for key in runner._records if key[3] != "None"]) == 3  # only the checks


def test_numbers_not_shaped_as_the_watched_iteration_are_drawn_by_running_again() -> None:
    # as many values each time, but another op: the host finds its numbers are not that graph's
    source = (
        "w = Value(0.5)\nfor k in range(4):\n    x = Value(2.0)\n"
        "    y = x * w if k % 2 else x + w\n    y.backward()\n    w.data -= 0.1 * w.grad\n"
    )
    record = run_record(source, {})
    third = record.passes[loop_of(record)[2]]  # x + w, kept like the second, x * w
    assert third.graph is None and not third.watched
    program = run(source, iteration=2)  # run again, watching it
    assert program.graph.ops[-1] is not None and program.graph.ops[-1].text == "add"
    assert output_data(program) == program.losses[2] == 2.1  # w: 0.5, then grads 1, 1 + 2


def test_an_iteration_asked_for_that_is_not_there_is_a_clear_error() -> None:
    with pytest.raises(GradstepError) as err:
        run(LECTURE_TRAINING, iteration=20)
    assert err.value.message == "this program has no iteration 20: its loop ran 20 (0 to 19)"
    with pytest.raises(GradstepError) as err:
        run("a = Value(2.0)\nb = a * a\nb.backward()", iteration=0)
    assert "has no training loop" in err.value.message


def test_backward_twice_on_one_graph_is_one_iteration() -> None:
    program = run("a = Value(2.0)\nb = a * a\nb.backward()\nb.backward()\nprint(a.grad)")
    assert program.losses == () and program.iteration is None
    assert program.console == ((5, "8.0"),)  # grads accumulate: 4 + 4


def test_micrograd_demos_hundred_iterations_run() -> None:
    program = run("\n".join([DEMO, DEMO_OPTIMIZATION_CELL]))
    assert len(program.losses) == 100 and program.iteration == 0
    assert program.console[-1][1].startswith("step 99 loss ")
    assert repr(program.losses[-1]) in program.console[-1][1]


NOTEBOOK_TRAINING = "\n".join(
    [LECTURE_NOTEBOOK_NEURON, LECTURE_MLP_CELL, "n = MLP(3, [4, 4, 1])", LECTURE_DATASET_CELL,
     LECTURE_TRAINING_CELL]
)  # fmt: skip


def test_the_notebooks_neuron_pass_is_not_an_iteration_of_its_training_loop() -> None:
    program = run(NOTEBOOK_TRAINING, engine="gradstep")
    assert program.graph.engine == "gradstep"
    assert len(program.losses) == 20  # o.backward() of the neuron is written elsewhere
    assert program.iteration == 0
    assert output_data(program) == program.losses[0] == run(LECTURE_TRAINING).losses[0]


def test_a_training_loop_of_the_programs_own_engine_is_stepped_through_too() -> None:
    program = run(NOTEBOOK_TRAINING)
    assert program.graph.engine == "program" and program.graph.engine_class == "Value"
    assert len(program.losses) == 20 and program.iteration == 0
    printed = [text for _, text in program.console][-20:]
    assert printed == [f"{k} {loss!r}" for k, loss in enumerate(program.losses)]
    assert output_data(program) == program.losses[0]
    for k in (2, 3, 4):  # drawn by running again, watched: its objects are made at other
        # addresses, so its sets of them (_prev) list them in another order and the grads
        # add up in another order: the last bits may differ, as between two runs of CPython
        later = run(NOTEBOOK_TRAINING, iteration=k)
        assert later.graph.engine == "program" and later.iteration == k
        assert output_data(later) == pytest.approx(program.losses[k], rel=1e-12)
