"""Wingspan's flow-stack task records: each record's ``FIELDS`` is the one place
its stored order is written; it names exactly the record's slots, its
``__init__`` takes them in that order, and a stored array reads back into an
equal record."""

from __future__ import annotations

import inspect

import pytest

from services.wingspan.rules.power_tasks import RECORDS, as_task
from services.wingspan.rules.tasks import Task


def _slots(cls: type) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        names |= set(klass.__dict__.get("__slots__", ()))
    return names - {"code", "seat"}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_wingspan_task_fields_are_its_slots_in_init_order(record: type[Task]) -> None:
    assert set(record.FIELDS) == _slots(record)
    params = list(inspect.signature(record.__init__).parameters)[1:]
    if params != ["seat", "values"]:  # the shared records take their fields as *values
        assert params == ["seat", *record.FIELDS]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_wingspan_task_row_reads_back(record: type[Task]) -> None:
    values = list(range(len(record.FIELDS)))
    task = record(1, *values)
    assert task.row() == (record.CODE, 1, *values)
    again = as_task(list(task.row()))
    assert type(again) is record and again.row() == task.row()


def test_wingspan_shared_task_records_never_change() -> None:
    """A shared record (one per seat, built at import) refuses a new field value."""
    from services.wingspan.rules.tasks import START_TURN, pink_trigger

    with pytest.raises(AttributeError):
        START_TURN[0].seat = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        pink_trigger(0, 1, 2).param = 0  # type: ignore[misc]
