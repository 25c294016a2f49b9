"""numpy's legacy random generator (``np.random.seed``, ``uniform``, ``rand``, ``randn``,
``normal``) in the standard library: the same numbers numpy gives for the same seed.

numpy's ``RandomState`` is a Mersenne Twister like Python's ``random``, and both make a float
from two 32-bit draws the same way (``genrand_res53``); only the seeding differs. numpy seeds an
int with MT19937's ``init_genrand``, computed here and handed to a ``random.Random`` through
``setstate``. Its normal draws are the polar method, each second one kept for the next call.
"""

from __future__ import annotations

import math
import random

from engine.errors import GradstepError
from engine.language.objects.kinds import brief

_N = 624
_MASK = 0xFFFFFFFF


def _init_genrand(seed: int) -> tuple[int, ...]:
    mt = [seed & _MASK]
    for i in range(1, _N):
        prev = mt[i - 1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & _MASK)
    return (*mt, _N)  # the position: the next draw regenerates the whole state, as numpy does


class LegacyRandom:
    """One program's ``np.random``: seeded as numpy seeds an int (``DEFAULT_SEED`` first)."""

    __slots__ = ("_gauss", "_rng")

    def __init__(self, seed: int) -> None:
        self._rng = random.Random()
        self._gauss: float | None = None
        self.seed(seed)

    def seed(self, seed: object) -> None:
        if isinstance(seed, float) and seed.is_integer():
            seed = int(seed)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
            raise GradstepError(
                f"np.random.seed takes a whole number from 0 to 2**32 - 1, not {brief(seed)}",
                "type",
            )
        self._rng.setstate((3, _init_genrand(seed), None))
        self._gauss = None

    def random(self) -> float:
        """numpy's ``random_sample``: 53 random bits, as Python's ``random()`` makes them."""
        return self._rng.random()

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self._rng.random()

    def gauss(self) -> float:
        """numpy's ``legacy_gauss``: the polar method, its second number kept for next time."""
        if self._gauss is not None:
            kept, self._gauss = self._gauss, None
            return kept
        while True:
            x1 = 2.0 * self._rng.random() - 1.0
            x2 = 2.0 * self._rng.random() - 1.0
            r2 = x1 * x1 + x2 * x2
            if 0.0 < r2 < 1.0:
                break
        f = math.sqrt(-2.0 * math.log(r2) / r2)
        self._gauss = f * x1
        return f * x2
