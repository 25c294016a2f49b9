"""Classes in Redis (``GRADSTEP_BROKER_URL=redis://…``): every worker of every server shares
them, and a step posted to one worker reaches a student listening on another.

Keys, per class (``{code}`` is a hash tag: a class's keys stay on one node of a cluster):

- ``gradstep:class:{code}``, a hash: ``key`` (the teacher key's SHA-256), ``state`` (JSON,
  app.classroom.state), ``seq`` (the last event's id), ``open`` (the round taking answers,
  ``question:round``), ``n:question:round`` (answers counted);
- ``gradstep:class:{code}:answers``, a hash: ``question:round|student`` → the answer's JSON;
- ``gradstep:class:{code}:students``, a hash: ``student`` → ``{"nickname", "streams", "till",
  "first"}`` (its streams open; till: until when a stream of it counts as heard from; first:
  when it was first seen; Unix seconds).

All expire ``ttl_s`` after the teacher's last command (each command sets the first two
lifetimes; an answer, or a student's page noted, gives its hash the class's). Events go out on
the channel ``gradstep:class:{code}:events`` as ``"<id> <json>"``. A teacher's command is a
WATCH/MULTI/EXEC transaction (read the hash, apply the command in Python, write, publish:
retried when an answer or another command came in between); an answer is one Lua script (open
round? first answer of this student? then count it, publish the count), so it is counted once
whichever worker takes it.

Each worker holds one pub/sub connection, subscribed to the classes its listeners follow.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import redis.asyncio as aioredis
from pydantic import ValidationError
from redis.exceptions import RedisError, WatchError

from app.classroom.hub import Hub, Item
from app.classroom.model import (
    Change,
    Outcome,
    Snapshot,
    closed_event,
    count_event,
    event_json,
    roster_row,
    round_of,
)
from app.classroom.protocol import MAX_ANSWERS_PER_ROUND, MAX_ROSTER, Command, StoreUnavailable
from app.classroom.state import STATE_JSON, ClassState

CONNECT_TIMEOUT_S = 2  # a broker that is down is a 503 at once, not a hung request
SUBSCRIBE_TIMEOUT_S = 5
MAX_CONNECTIONS = 32  # per worker: commands are short, so a burst queues briefly for one
POOL_WAIT_S = 5  # then a 503
RECONNECT_S = 1
HEALTH_TIMEOUT_S = 0.5  # /healthz answers within a second, the broker down or not
MAX_RETRIES = 100  # a command's transaction, retried while answers keep coming in

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'key', ARGV[1], 'state', ARGV[2], 'seq', 0, 'open', '')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS: class, answers. ARGV: round, student, answer, most answers, channel, the count event's
# JSON before and after its number
_ANSWER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone', 0} end
local n = tonumber(redis.call('HGET', KEYS[1], 'n:' .. ARGV[1]) or '0')
if redis.call('HGET', KEYS[1], 'open') ~= ARGV[1] then return {'not_open', n} end
local field = ARGV[1] .. '|' .. ARGV[2]
if redis.call('HEXISTS', KEYS[2], field) == 1 then return {'answered', n} end
if n >= tonumber(ARGV[4]) then return {'full', n} end
redis.call('HSETNX', KEYS[2], field, ARGV[3])
n = redis.call('HINCRBY', KEYS[1], 'n:' .. ARGV[1], 1)
local id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('PEXPIRE', KEYS[2], redis.call('PTTL', KEYS[1]))
redis.call('PUBLISH', ARGV[5], id .. ' ' .. ARGV[6] .. n .. ARGV[7])
return {'counted', n}
"""

# KEYS: class, students. ARGV: student, nickname ('' keeps the one noted), streams opened (1, 0
# or -1), till (kept when the stream ended), now, most
_PRESENT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local old = redis.call('HGET', KEYS[2], ARGV[1])
if not old and redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[6]) then return 0 end
local seen = old and cjson.decode(old) or {first = tonumber(ARGV[5]), streams = 0, till = 0}
if ARGV[2] ~= '' then seen.nickname = ARGV[2] end
local opened = tonumber(ARGV[3])
seen.streams = math.max(opened == 0 and 1 or 0, seen.streams + opened)
if opened >= 0 then seen.till = tonumber(ARGV[4]) end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(seen))
redis.call('PEXPIRE', KEYS[2], redis.call('PTTL', KEYS[1]))
return 1
"""

# KEYS: class, answers, students. ARGV: channel, the closed event's JSON
_CLOSE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[1], id .. ' ' .. ARGV[2])
return 1
"""


def class_key(code: str) -> str:
    return f"gradstep:class:{{{code}}}"


def answers_key(code: str) -> str:
    return class_key(code) + ":answers"


def students_key(code: str) -> str:
    return class_key(code) + ":students"


def channel(code: str) -> str:
    return class_key(code) + ":events"


def _code_of(channel_name: str) -> str:
    return channel_name.split("{", 1)[1].split("}", 1)[0]


def _snapshot(raw: dict[str, str]) -> Snapshot | None:
    """The class a hash holds; None for none, or for a state this version cannot read (a class
    made by an older version, before a restart: it is no class now)."""
    if not raw:
        return None
    try:
        state = STATE_JSON.validate_json(raw["state"])
    except ValidationError:
        return None
    counts = {name[2:]: int(value) for name, value in raw.items() if name.startswith("n:")}
    return Snapshot(raw["key"], int(raw["seq"]), raw["open"], state, counts)


@contextmanager
def _reachable(url: str) -> Iterator[None]:
    try:
        yield
    except (RedisError, OSError) as error:
        where = url.split("@")[-1]  # never the password
        raise StoreUnavailable(f"the broker {where} cannot be reached ({error})") from None


class RedisStore:
    kind = "redis"

    def __init__(self, url: str, ttl_s: float) -> None:
        self.url = url
        self.ttl_s = ttl_s
        self.hub = Hub()
        # a bounded pool that makes a request wait its turn (redis-py's default pool refuses
        # past its size: 200 students connecting at once made a 503); no socket timeout, for
        # the pub/sub connection waits for events without end
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=MAX_CONNECTIONS,
            timeout=POOL_WAIT_S,
            decode_responses=True,
            socket_connect_timeout=CONNECT_TIMEOUT_S,
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self._create = self.redis.register_script(_CREATE)
        self._answer = self.redis.register_script(_ANSWER)
        self._close = self.redis.register_script(_CLOSE)
        self._present = self.redis.register_script(_PRESENT)
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._subscribed: dict[str, asyncio.Event] = {}  # channel → set once confirmed
        self._lock = asyncio.Lock()

    @property
    def ttl_ms(self) -> int:
        return max(1, round(self.ttl_s * 1000))

    def _where(self) -> Any:
        return _reachable(self.url)

    async def create(self, code: str, key_hash: str, state: ClassState) -> bool:
        with self._where():
            made = await self._create(
                keys=[class_key(code)], args=[key_hash, STATE_JSON.dump_json(state), self.ttl_ms]
            )
        return bool(made)

    async def get(self, code: str) -> Snapshot | None:
        with self._where():
            raw: dict[str, str] = await self.redis.hgetall(class_key(code))  # type: ignore[assignment]
        return _snapshot(raw)

    async def update(self, code: str, command: Command) -> Snapshot | None:
        key = class_key(code)
        with self._where():
            async with self.redis.pipeline(transaction=True) as pipe:
                for _ in range(MAX_RETRIES):
                    try:
                        await pipe.watch(key)
                        raw: dict[str, str] = await pipe.hgetall(key)  # type: ignore[assignment]
                        before = _snapshot(raw)
                        if before is None:
                            return None
                        change = command(before)
                        after = self._write(pipe, code, before, change)
                        await pipe.execute()
                        return after
                    except WatchError:
                        continue
                    finally:
                        await pipe.reset()  # type: ignore[no-untyped-call]
        raise StoreUnavailable(f"the class {code} changed {MAX_RETRIES} times during a command")

    def _write(self, pipe: Any, code: str, before: Snapshot, change: Change) -> Snapshot:
        pipe.multi()
        seq = before.seq + len(change.events)
        fields = {"state": STATE_JSON.dump_json(change.state), "open": change.open, "seq": seq}
        pipe.hset(class_key(code), mapping=fields)
        pipe.pexpire(class_key(code), self.ttl_ms)
        pipe.pexpire(answers_key(code), self.ttl_ms)
        for offset, event in enumerate(change.events, before.seq + 1):
            pipe.publish(channel(code), f"{offset} {event_json(event)}")
        return Snapshot(before.key_hash, seq, change.open, change.state, before.counts)

    async def answer(
        self, code: str, round_key: str, student: str, record: dict[str, Any]
    ) -> tuple[Outcome, int]:
        question, number = round_of(round_key)
        head, tail = event_json(count_event(question, number, -1)).split("-1")
        with self._where():
            outcome, count = await self._answer(
                keys=[class_key(code), answers_key(code)],
                args=[
                    round_key,
                    student,
                    json.dumps(record),
                    MAX_ANSWERS_PER_ROUND,
                    channel(code),
                    head,
                    tail,
                ],
            )
        return Outcome(outcome), int(count)

    async def answers(self, code: str) -> dict[str, list[dict[str, Any]]]:
        with self._where():
            raw: dict[str, str] = await self.redis.hgetall(answers_key(code))  # type: ignore[assignment]
        rounds: dict[str, list[dict[str, Any]]] = {}
        for name, value in raw.items():
            rounds.setdefault(name.split("|", 1)[0], []).append(json.loads(value))
        for records in rounds.values():
            records.sort(key=lambda record: record["at"])
        return rounds

    async def present(
        self, code: str, student: str, nickname: str | None, opened: int, seconds: float
    ) -> None:
        now = time.time()
        with self._where():
            await self._present(
                keys=[class_key(code), students_key(code)],
                args=[student, nickname or "", opened, now + seconds, now, MAX_ROSTER],
            )

    async def roster(self, code: str, round_key: str) -> list[dict[str, Any]]:
        with self._where():
            raw: dict[str, str] = await self.redis.hgetall(students_key(code))  # type: ignore[assignment]
            answered: dict[str, dict[str, Any]] = {}
            async for name, value in self.redis.hscan_iter(
                answers_key(code), match=f"{round_key}|*", count=500
            ):
                answered[name.split("|", 1)[1]] = json.loads(value)
        now = time.time()
        seen = sorted(((json.loads(v), k) for k, v in raw.items()), key=lambda s: s[0]["first"])
        return [roster_row(noted, answered.get(student), now) for noted, student in seen]

    async def close(self, code: str, reason: str) -> bool:
        with self._where():
            done = await self._close(
                keys=[class_key(code), answers_key(code), students_key(code)],
                args=[channel(code), event_json(closed_event(reason))],
            )
        return bool(done)

    # ── listening ─────────────────────────────────────────────────────────────────────────────

    @asynccontextmanager
    async def listen(self, code: str) -> AsyncIterator[asyncio.Queue[Item]]:
        queue, _first = self.hub.add(code)
        try:
            with self._where():
                await self._follow(code)
                ready = self._subscribed.get(channel(code))
                if ready is not None:
                    await asyncio.wait_for(ready.wait(), SUBSCRIBE_TIMEOUT_S)
            yield queue
        except TimeoutError:
            raise StoreUnavailable("the broker did not confirm a subscription") from None
        finally:
            self.hub.remove(code, queue)
            with self._where():
                await self._follow(code)

    async def _follow(self, code: str) -> None:
        """Subscribe to the class's channel while this worker has a listener of it, and not
        otherwise; one at a time, so that a subscription never overtakes an unsubscription."""
        name = channel(code)
        async with self._lock:
            if self._reader is None:
                await self._start()
            want = self.hub.listening(code)
            if want and name not in self._subscribed:
                self._subscribed[name] = asyncio.Event()
                await self._pubsub.subscribe(name)
            elif not want and name in self._subscribed:
                del self._subscribed[name]
                await self._pubsub.unsubscribe(name)

    async def _start(self) -> None:
        self._pubsub = self.redis.pubsub()
        # a channel of its own, so that the reader always has a subscription to read
        await self._pubsub.subscribe(f"gradstep:worker:{uuid.uuid4().hex}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        """Hand each event to this worker's listeners of its class. When the connection is
        lost, events may be missed: every stream here is ended, and each browser reconnects and
        is sent its class as it is then (redis-py subscribes again on reconnecting)."""
        while True:
            try:
                async for message in self._pubsub.listen():
                    kind, name = message["type"], message["channel"]
                    if kind == "subscribe" and name in self._subscribed:
                        self._subscribed[name].set()
                    elif kind == "message":
                        event_id, data = message["data"].split(" ", 1)
                        self.hub.deliver(_code_of(name), int(event_id), data)
            except asyncio.CancelledError:
                raise
            except Exception:  # the broker went away; redis-py reconnects on the next read
                self.hub.end_all()
                await asyncio.sleep(RECONNECT_S)

    async def reachable(self) -> bool:
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT_S):
                return bool(await self.redis.ping())
        except (TimeoutError, OSError, aioredis.RedisError):
            return False

    async def aclose(self) -> None:
        self.hub.shutdown()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except (RedisError, OSError):
                pass
        await self.redis.aclose(close_connection_pool=True)  # a pool given is not closed else
