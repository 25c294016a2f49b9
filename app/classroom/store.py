"""Where classes live: ``open_store`` chooses a store (app.classroom.protocol) from the
broker's URL.

Without ``GRADSTEP_BROKER_URL`` a worker keeps its classes in memory (``memory.MemoryStore``):
one process, nothing else to run. With ``redis://…`` every worker and server shares them through
Redis (``redis_store.RedisStore``): state in keys that expire, events by pub/sub.
"""

from __future__ import annotations

from app.classroom.memory import MemoryStore
from app.classroom.protocol import CLASS_TTL_S, ClassStore
from app.classroom.redis_store import RedisStore


def open_store(broker_url: str | None, ttl_s: float | None = None) -> ClassStore:
    """The store ``broker_url`` names: None, memory; ``redis://``, ``rediss://`` or
    ``unix://``, Redis (connected when first used)."""
    ttl = CLASS_TTL_S if ttl_s is None else ttl_s
    if not broker_url:
        return MemoryStore(ttl)
    return RedisStore(broker_url, ttl)
