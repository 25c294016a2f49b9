"""The training lab: configs, the training loop, decision boundaries, one point as a program."""
