"""The renderers' shared rules: placeholders, zero-safe reading, coordinates, width."""

from __future__ import annotations

from roost.birdscaping.v1 import types_pb2 as birdscaping
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import types_pb2 as utl
from roost.wingspan.v1 import types_pb2 as wingspan

from clients.cli.render import board, event_line
from clients.cli.render.common import enum_text, optional, seat_text, viewer
from clients.cli.render.undertheleaves import cell_name, garden_map, tile_of, turned
from tests.clients.recorded import catalogue, positions
from tests.clients.test_render_snapshots import text_of


def test_nobody_and_unspecified_read_as_a_dash() -> None:
    assert seat_text(-1) == "—" and seat_text(None) == "—"
    assert seat_text(2, {2: "ann"}) == "ann" and seat_text(3) == "seat 3"
    view = birdscaping.View()
    assert enum_text(view, "activating_row") == "—"
    assert enum_text(birdscaping.View(activating_row=2), "activating_row") == "garden"
    assert enum_text(wingspan.View(birdfeeder=[6]), "birdfeeder", 6) == "invertebrate or seed"


def test_zero_is_a_value_and_absence_is_none() -> None:
    solo = common_pb2.SoloResult()
    assert optional(solo, "opponent_score") is None
    solo.opponent_score = 0
    assert optional(solo, "opponent_score") == 0
    assert optional(common_pb2.ScoreBoard(), "solo") is None
    assert optional(solo, "no_such_field") is None


def test_the_viewer_seat_zero_is_a_seat_and_unset_is_a_spectator() -> None:
    assert viewer(utl.View(viewer_seat=0)) == 0
    assert viewer(wingspan.View(viewer_seat=1)) == 1
    assert viewer(birdscaping.View()) == -1


def test_a_dweller_at_x_zero_is_drawn_at_zero() -> None:
    """A dweller on the cell (0, -4) sits on the tile (0, -2), top-left, and is drawn there."""
    assert tile_of(0, -4) == (0, -2) and cell_name(0, -4) == "tile (0, -2) top-left"
    assert cell_name(-1, -1) == "tile (-1, 0) bottom-right"
    garden = utl.Garden(
        tiles=[utl.GardenTile(tile="S01", x=0, y=-2, terrains=[1, 2, 3, 6])],
        dwellers=[utl.DwellerPiece(card="puddle_skipper", family=2, x=0, y=-4)],
    )
    drawn = garden_map(garden).plain.splitlines()
    assert drawn[0].split()[-1] == "0"
    assert drawn[1].split() == ["-2", "p", "P", "y"]  # pink, the puddle dweller, yellow
    assert drawn[2].split() == ["o", "~"]


def test_a_game_without_a_catalogue_still_draws() -> None:
    view = birdscaping.View(
        players=1, solo=True, viewer_seat=0, seats=[birdscaping.SeatView(hand=["robin"])]
    )
    text = text_of([board("birdscaping", view, None, width=80)], 80)
    assert "Robin" in text and "Your hand" in text


def test_a_placement_preview_turns_the_tile_as_the_service_places_it() -> None:
    """Every placed tile of the recorded games equals its printed spaces turned by
    ``turned`` (clockwise, then mirrored when flipped): the preview beside each
    rotation choice is what the garden will show."""
    printed = {t.tile: list(t.spaces) for t in catalogue("undertheleaves").tiles}
    checked = 0
    for position in positions("undertheleaves"):
        for garden in position.state.view.gardens:
            for tile in garden.tiles:
                quad = turned(printed[tile.tile], tile.rotation, tile.flipped)
                assert [s.terrain for s in quad] == list(tile.terrains), tile
                assert [s.mushroom for s in quad] == list(tile.mushrooms), tile
                checked += 1
    assert checked > 100


def test_a_view_the_board_cannot_draw_is_shown_as_it_is(monkeypatch) -> None:
    """A renderer that fails on a view (one newer than the client) does not end the
    session: the view is shown generically under a note."""
    from clients.cli.render import wingspan as drawing

    def fail(*args: object, **kwargs: object) -> None:
        raise ValueError("a field this client does not know")

    monkeypatch.setattr(drawing, "render", fail)
    view = wingspan.View(round=2, players=[wingspan.PlayerView(seat=0)])
    text = text_of([board("wingspan", view, None, width=80)], 80)
    assert "could not be drawn" in text and "Board" in text and "Round" in text


def test_a_dwellers_options_are_numbered_on_the_map_and_in_the_choices() -> None:
    """The cells a pending dweller may go to carry 1, 2... on the garden; each choice
    names its cell by tile and corner and by that number."""
    from roost.undertheleaves.v1 import service_pb2

    from clients.cli.choices import choices_of

    view = utl.View(
        viewer_seat=0,
        current_seat=0,
        phase=2,
        pending_card="leaf_friendly",
        pending_options=[utl.DwellerOption(x=0, y=0), utl.DwellerOption(x=1, y=-1)],
        gardens=[utl.Garden(seat=0, tiles=[utl.GardenTile(tile="S01", terrains=[1, 2, 3, 6])])],
    )
    text = text_of([board("undertheleaves", view, None, width=80)], 80)
    assert "0  p 1 y" in text and "o   ~ 2" in text and "where the dweller" in text
    assert "1: tile (0, 0) top-left, 2: tile (0, 0)" in text
    actions = [
        service_pb2.LegalAction(
            ref=common_pb2.ActionRef(id=i, label=f"Friendly on ({x}, {y})", kind="place_dweller"),
            action=utl.Action(place_dweller=utl.PlaceDweller(card="leaf_friendly", x=x, y=y)),
        )
        for i, (x, y) in enumerate([(0, 0), (1, -1)])
    ]
    details = [c.detail for c in choices_of("undertheleaves", actions, view, None)]
    assert details == [
        "tile (0, 0) top-left, marked 1 on the map",
        "tile (0, 0) bottom-right, marked 2 on the map",
    ]


def test_the_seats_own_panel_is_drawn_last_just_above_the_prompt() -> None:
    """At 80 columns the viewer's own mat, aviary, tableau or garden comes after every other
    seat's, so with the choices below it it is what a 24-line terminal still shows."""
    for game in ("wingspan", "skygarden", "birdscaping", "undertheleaves"):
        position = next(p for p in positions(game) if p.name.startswith("2p-") and p.legal)
        names = position.names
        me = position.state.viewer_seat
        text = text_of(
            [board(game, position.state.view, catalogue(game), width=80, names=names)], 80
        )
        other = next(s for s in names if s != me)
        mine = names[me]
        assert text.rfind(mine) > text.rfind(names[other]), game


def test_a_move_read_by_others_names_the_seat_not_you() -> None:
    """One naming of players: a label written for its mover ("into your wetland") reads
    "into bo's wetland" for anyone else, and unchanged for the mover."""
    event = common_pb2.Event(version=7, seat=1, label="Play Mallard into your wetland")
    names = {0: "ann", 1: "bo"}
    assert text_of([event_line(event, names, viewer=0)], 80).strip().endswith("into bo's wetland")
    assert text_of([event_line(event, names, viewer=1)], 80).strip().endswith("into your wetland")
    unnamed = text_of([event_line(common_pb2.Event(seat=2, label="x"), {2: ""})], 80)
    assert "seat 2: x" in unnamed
