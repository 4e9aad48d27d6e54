"""Random sequences of lobby operations agree with a plain list model: seats stay 0..n-1, a user
sits once, the lobby never exceeds the game's capacity, every accepted change bumps the version
once and every refused one changes nothing."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import LobbyFull, NotSeated, SeatTaken, Storage, StorageError

Op = tuple[str, int]
ops = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.integers(1, 6)),
        st.tuples(st.just("leave"), st.integers(1, 6)),
        st.tuples(st.just("leave_seat"), st.integers(0, 4)),
        st.tuples(st.just("ai"), st.integers(0, 1)),
    ),
    max_size=25,
)


async def _run(path: Path, script: list[Op]) -> None:
    async with await Storage.open(path) as storage:
        record = await storage.games.create_lobby("test-counter", creator_id=1)
        model: list[tuple[int | None, str | None]] = [(1, None)]
        for op, arg in script:
            before = record.version
            try:
                if op == "join":
                    record = await storage.games.join(record.id, arg)
                elif op == "leave":
                    record = await storage.games.leave(record.id, user_id=arg)
                elif op == "leave_seat":
                    record = await storage.games.leave(record.id, seat=arg)
                else:
                    record = await storage.games.add_ai(record.id, f"policy{arg}")
            except (SeatTaken, LobbyFull, NotSeated) as refused:
                expected: type[StorageError]
                if op == "join" and (arg, None) in model:
                    expected = SeatTaken
                elif op in ("join", "ai"):
                    expected = LobbyFull
                else:
                    expected = NotSeated
                assert isinstance(refused, expected), (op, arg, model)
                assert await storage.games.get(record.id) == record
                continue
            if op == "join":
                model.append((arg, None))
            elif op == "leave":
                model.remove((arg, None))
            elif op == "leave_seat":
                del model[arg]
            else:
                model.append((None, f"policy{arg}"))
            assert len(model) <= 4  # test-counter seats 1..4 players
            assert record.version == before + 1
            assert [(s.user_id, s.ai_policy) for s in record.seats] == model
            assert [s.seat for s in record.seats] == list(range(len(model)))
        assert await storage.games.get(record.id) == record


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=ops)
def test_lobby_operations_match_a_list_model(script: list[Op]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_run(Path(tmp) / "lobby.db", script))
