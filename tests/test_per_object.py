"""rulepress.per_object: a value worked out once per object, let go with it (a watch
makes a new ruleset on every edit, and its outline was kept for 1,000 edits)."""

from __future__ import annotations

from rulepress.per_object import PerObject


class Thing:
    """A frozen object of no interest but its identity."""


def test_a_value_is_worked_out_once_while_its_object_lives():
    values, made = PerObject(), []
    thing = Thing()
    first = values.get(thing, lambda t: made.append(t) or [len(made)])
    assert values.get(thing, lambda t: made.append(t) or [len(made)]) is first
    assert made == [thing]


def test_a_value_goes_with_its_object():
    values = PerObject()
    things = [Thing() for _ in range(50)]
    for thing in things:
        values.get(thing, lambda t: bytearray(1000))
    assert len(values.values) == 50
    del thing, things[10:]
    assert len(values.values) == 10


def test_an_object_given_a_freed_ones_id_gets_its_own_value():
    values = PerObject()
    old = Thing()
    values.get(old, lambda t: "old")
    reused = id(old)
    del old
    for _ in range(1000):  # CPython gives a freed object's memory to the next of its size
        new = Thing()
        if id(new) == reused:
            break
    assert values.get(new, lambda t: "new") == "new"
    assert len(values.values) == 1
