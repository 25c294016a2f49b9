"""Random programs and random query strings: every answer is a 200 or a 422 with the error
shape, never a 500."""

from __future__ import annotations

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

TOKENS = [
    *("a", "b", "x1", "=", "+", "-", "*", "/", "**", "(", ")", "1.5", "0", "-2", "\n", ";"),
    *(".tanh()", ".relu()", "exp(", "log(", "Value(", ",", "label=", "'n'", "g.backward()"),
]

programs = st.one_of(
    st.text(max_size=80),
    st.lists(st.sampled_from(TOKENS), max_size=30).map(" ".join),
)


@settings(max_examples=60, deadline=None)
@given(source=programs, step=st.integers(-2, 40), values=st.text(max_size=20))
def test_no_input_gets_a_500(client: TestClient, source: str, step: int, values: str) -> None:
    posted = client.post("/api/graph", json={"source": source})
    assert posted.status_code in (200, 422), posted.text
    if posted.status_code == 422:
        assert set(posted.json()["error"]) == {"message", "kind", "line", "column", "end_column"}
    params = {"source": source, "step": str(step), "values": values}
    got = client.get("/api/graph.svg", params=params)
    assert got.status_code in (200, 422), got.text
