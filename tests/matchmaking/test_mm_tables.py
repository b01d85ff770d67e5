"""Private tables in plain values: the seat plan's rules and its stored form."""

from __future__ import annotations

import grpc
import pytest

from services.core.errors import ServiceError
from services.matchmaking.tables import TableSeat, bot_count, check_table, seat_people
from services.matchmaking.tickets import TicketData

YOU = TableSeat(player_id="you")
FRIEND = TableSeat(player_id="friend")
GREEDY = TableSeat(bot_kind="GREEDY", name="Greta")
RANDOM = TableSeat(bot_kind="RANDOM")


def field_of(seats: list[TableSeat], party: list[str]) -> str:
    with pytest.raises(ServiceError) as caught:
        check_table(seats, party, 2, 4)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.reason == "ERROR_REASON_INVALID_REQUEST"
    (field,) = caught.value.field_violations
    return field


def test_a_valid_plan_passes_and_seats_everyone_where_asked() -> None:
    check_table([GREEDY, YOU, RANDOM, FRIEND], ["you", "friend"], 2, 4)
    check_table([GREEDY, RANDOM], [], 2, 4)  # bots only: a game to watch
    people = seat_people([GREEDY, YOU, RANDOM], [("you", "You")], "ticket-1")
    assert [(p["player_id"], p["name"], p["bot"]) for p in people] == [
        ("bot:greedy", "Greta", True),
        ("you", "You", False),
        ("bot:random", "Random bot 2", True),
    ]
    assert people[1]["ticket_id"] == "ticket-1" and people[2]["kind"] == "RANDOM"
    assert bot_count([GREEDY, YOU, RANDOM]) == 2


@pytest.mark.parametrize(
    ("seats", "party", "field"),
    [
        ([YOU], ["you"], "table.seats"),  # fewer seats than the game's minimum
        ([YOU, GREEDY, GREEDY, GREEDY, GREEDY], ["you"], "table.seats"),  # more than the maximum
        ([YOU, YOU], ["you"], "table.seats[1].player_id"),  # twice
        ([YOU, GREEDY], ["you", "friend"], "table.seats"),  # friend has no seat
        ([YOU, TableSeat(player_id="stranger")], ["you"], "table.seats[1].player_id"),
        ([YOU, TableSeat(bot_kind="CLEVER")], ["you"], "table.seats[1].bot"),
        ([TableSeat(player_id="you", name="x"), GREEDY], ["you"], "table.seats[0].name"),
        ([YOU, TableSeat(bot_kind="GREEDY", name="x" * 65)], ["you"], "table.seats[1].name"),
    ],
)
def test_a_bad_plan_is_invalid_argument_naming_the_field(
    seats: list[TableSeat], party: list[str], field: str
) -> None:
    assert field_of(seats, party) == field


def test_ticket_data_keeps_its_table_and_reads_tickets_stored_without_one() -> None:
    data = TicketData("t1", "g", (3,), "{}", (("you", "You"),), True, 0, "GREEDY", 1, 25.0,
                      table=(GREEDY, YOU, RANDOM))  # fmt: skip
    again = TicketData.from_json(data.to_json())
    assert again == data and again.private
    plain = TicketData("t2", "g", (2,), "{}", (("a", "a"),), False, 0, "RANDOM", 1, 25.0)
    assert "table" not in plain.to_json()
    assert TicketData.from_json(plain.to_json()) == plain and not plain.private
