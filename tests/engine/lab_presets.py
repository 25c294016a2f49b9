"""What the tests of engine.lab share: the configs of the XOR and micrograd-moons presets."""

from __future__ import annotations

from engine.lab.config import PRESETS

XOR = PRESETS["xor-tanh"][1]
MOONS = PRESETS["micrograd-moons"][1]
