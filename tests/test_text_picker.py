"""Typed lines without a keyboard (the letter picker) and with one (the line shown as it is typed), on the
pure app: every game's setup and the free scoreboard take names, the word entry opens the picker by
itself, names are remembered for the same players again, and bad lines get a clear word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core import app
from firmware_host.core.effects import SaveSettings
from firmware_host.core.events import Button, LongPress, Press, TextEntry, Turn, Typing
from firmware_host.core.games.perfektes_wort.stages import Entering, Reviewing
from firmware_host.core.screens import ListScreen
from firmware_host.core.text_field import TextField, typed
from firmware_host.core.text_input import LINE
from firmware_host.core.text_picker import DELETE, Picker, ring
from tests.picking import pick_events, presses
from tests.table_driver import Table
from tests.test_table_perfektes_wort import call, run_timer
from tests.test_table_perfektes_wort import start as start_perfektes_wort

GAMES = ["game:perfektes-wort", "game:quiddler", "game:perfect-words", "game:knack-das-wort"]


def pick(table: Table, text: str, *, encoder: bool = True) -> list:
    events = pick_events(table.state, text, table.now + 1, encoder=encoder)
    for event in events:
        table.step(event)
    return events


def names_stage(game: str) -> Table:
    """A table at `game`'s screen where the first seat's name is asked for."""
    table = Table().open_game(game)
    if game == "game:quiddler":
        table.press("start")  # the count, then the names
    return table


def seat_names(table: Table) -> tuple[str, ...]:
    flow = table.state.flow
    if hasattr(flow, "seats"):
        return flow.seats.players
    if hasattr(flow, "stage") and hasattr(flow.stage, "seats"):
        return flow.stage.seats.players
    return flow.stage.players


# --- the picker itself ---------------------------------------------------------------------------------


def test_the_ring_moves_both_ways_adds_deletes_and_a_name_comes_out_capitalised():
    picker = Picker(TextField("Name", "name"))
    assert picker.under_cursor == "A" and picker.moved(-1).under_cursor == DELETE
    for letter in "ÖZ":
        picker = picker.moved(ring(picker.field).index(letter) - picker.cursor).added()
    assert picker.under_cursor == "Z" and picker.moved(1).under_cursor == "Ä"
    picker = picker.added()
    assert picker.text == "ÖZZ" and picker.deleted().text == "ÖZ" and picker.line() == "Özz"
    spaced = Picker(TextField("Name", "name"), text="ANNA MARIA")
    assert spaced.line() == "Anna Maria"
    assert Picker(TextField("Wort", "word"), text="FUß").line() == "FUß"
    on_delete = Picker(TextField("Wort", "word"), text="AB", cursor=ring(TextField("x")).index(DELETE))
    assert on_delete.added().text == "A"


def test_the_ring_has_the_umlauts_sharp_s_digits_space_and_delete_and_brackets_for_card_notation():
    full = ring(TextField("x"))
    assert all(ch in full for ch in "ABCXYZÄÖÜß0123456789 ") and full.endswith(DELETE)
    assert "(" in ring(TextField("x", "cards")) and ")" in ring(TextField("x", "cards"))
    assert ring(TextField("x", "number")).startswith("0123456789")


def test_a_full_line_refuses_the_next_letter_and_says_how_long_a_line_may_be():
    picker = Picker(TextField("Name", "name", max_len=3), text="ABC")
    full = picker.added()
    assert full.text == "ABC" and full.full
    assert "höchstens 3" in full.screen("de").footer and "at most 3" in full.screen("en").footer


def test_the_picker_screen_shows_the_prompt_the_line_and_the_ring_around_the_cursor():
    screen = Picker(TextField("Name für Platz 1", "name", note="Hinweis"), text="ANN", cursor=0).screen("de")
    assert isinstance(screen, ListScreen) and screen.title == "Name für Platz 1"
    labels = [item.label for item in screen.items]
    assert labels[0] == "Hinweis" and labels[1] == "Ann▏" and "[A]" in labels[2] and DELETE in labels[2]
    assert screen.cursor == 1 and "lang START" in screen.footer
    assert "START +" in Picker(TextField("x")).screen("de").footer  # on an empty line: how to add a letter


def test_a_typed_line_goes_through_the_edge_and_a_control_character_is_refused_with_its_name():
    assert typed("  Anna   Lena ", 1.0) == TextEntry("Anna Lena", 1.0)
    table = names_stage("game:perfect-words")
    table.step(typed("A\x1bB", 1.0))
    assert "error" in table.beeps and "U+001B" in table.text and seat_names(table)[0] != "A\x1bB"


# --- names at every setup and on the free scoreboard -----------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_five_letter_name_takes_at_most_20_presses_with_the_encoder_at_every_games_setup(game):
    table = names_stage(game)
    assert app.entry_field(table.state) is not None and app.entry_field(table.state).kind == "name"
    assert "MENU" in table.screen.footer  # the screen says how a name is entered
    events = pick(table, "Jonas")
    assert seat_names(table)[0] == "Jonas"
    assert presses(events) <= 20, events
    assert app.active_picker(table.state) is None  # the picker closed with the line


def test_without_an_encoder_next_and_long_next_walk_the_ring():
    table = names_stage("game:knack-das-wort")
    events = pick(table, "Zoe", encoder=False)
    assert not any(isinstance(e, Turn) for e in events)
    assert any(isinstance(e, LongPress) and e.button is Button.NEXT for e in events)  # Z: the short way back
    assert seat_names(table)[0] == "Zoe"


def test_the_free_scoreboard_takes_a_name_typed_or_picked_and_remembers_it():
    table = Table(player_count=3)
    table.open_game("scoreboard")
    table.type("Anna")
    assert table.state.board.players[0] == "Anna" and "heißt jetzt Anna" in table.text
    saved = [e for e in table.effects if isinstance(e, SaveSettings)]
    assert saved and saved[-1].settings["player_names"] == ["Anna", "Spieler 2", "Spieler 3"]
    table.press("next")
    table.type("Anna")
    assert "error" in table.beeps and "spielt schon mit" in table.text
    pick(table, "Ben")
    assert table.state.board.players[:2] == ("Anna", "Ben")
    table.type("+5")
    assert table.state.board.totals[1] == 5  # points still are points


def test_the_names_of_a_game_begun_are_the_next_games_players():
    table = start_perfektes_wort("Geli", "Klaus")
    saved = [e for e in table.effects if isinstance(e, SaveSettings)]
    assert saved and saved[-1].settings["player_names"] == ["Geli", "Klaus"]
    assert table.state.settings.player_names == ("Geli", "Klaus")
    for event in app.events_to_open(table.state, "game:knack-das-wort", 0.0) or []:
        table.step(event)
    assert seat_names(table)[:2] == ("Geli", "Klaus")


# --- the word entry: text is the only input, the picker is open by itself ---------------------------------


def test_the_word_entry_opens_the_picker_by_itself_and_back_on_an_empty_line_undoes():
    table = start_perfektes_wort("Geli", "Klaus")
    table.press("next")  # reveal round 1
    run_timer(table)
    assert isinstance(table.state.flow.stage, Entering)
    assert isinstance(table.screen, ListScreen) and "[A]" in table.screen.items[-1].label
    assert "Geli" in table.screen.title
    letter, _ = call(table, 1)
    table.press("back")  # the alarm rings on: the first press only silences it (BACK does not undo)
    assert table.state.ringing is None and table.state.flow.stage == Entering(0)
    pick(table, f"{letter}AST")
    assert table.lines[-1]["word"] == f"{letter}AST" and table.state.flow.stage == Entering(1)
    table.press("back")  # the empty line: the screen's BACK takes Geli's word back
    assert table.state.flow.stage == Entering(0) and all(line.get("word") != f"{letter}AST" for line in table.lines)
    pick(table, f"{letter}OST")
    table.type(f"{letter}uß")  # a keyboard's line is taken as well
    assert isinstance(table.state.flow.stage, Reviewing)


def test_a_refused_picked_line_stays_in_the_picker_with_the_reason():
    table = names_stage("game:quiddler")
    table.type("Ann")
    pick(table, "Ann")  # seat 2 cannot be Ann too
    assert "error" in table.beeps
    picker = app.active_picker(table.state)
    assert picker is not None and picker.line() == "Ann"
    assert "spielt schon mit" in table.screen.footer
    table.press("back").press("back").press("back")  # three letters off
    table.hold("start")
    assert "leer" in table.text  # Quiddler refuses an empty name; the picker stays


def test_back_on_an_empty_picker_opened_from_the_menu_closes_it():
    table = names_stage("game:perfect-words")
    for event in app.events_to_open(table.state, "letters", 0.0) or []:
        table.step(event)
    assert app.active_picker(table.state) is not None
    table.press("back")
    assert app.active_picker(table.state) is None and table.state.flow is not None


def test_the_menu_offers_the_letters_only_where_a_line_is_wanted():
    state, _ = app.step(Table().state, Press(Button.MENU, 0))
    assert "letters" not in app.menu_keys(state)  # the timer: its length comes by the buttons
    table = names_stage("game:knack-das-wort")
    table.press("menu").press("start")
    keys = [key for key, _, _ in app.menu_entries(table.state, "play")]
    assert keys[:2] == ["continue", "letters"]  # the first entries of the first group
    assert "* Weiterspielen; Buchstaben;" in table.text


# --- a keyboard's line in the making ---------------------------------------------------------------------


def test_what_is_typed_shows_in_the_footer_and_a_line_too_long_says_so():
    table = names_stage("game:perfektes-wort")
    table.step(Typing("Ann", 1.0))
    assert table.screen.footer == "› Ann▏"
    table.step(Typing("A" * 17, 1.0))
    assert table.screen.footer == "Zu lang: 17 Zeichen, höchstens 16"
    table.type("A" * 17)
    assert "error" in table.beeps and "zu lang" in table.screen.footer.lower()
    assert seat_names(table)[0] != "A" * 17
    table.step(Typing("x" * (LINE.limit + 5), 2.0))
    assert table.state.typing and app.screen(table.state).footer.startswith("Zu lang")


def test_the_line_in_the_making_shows_in_the_open_picker_and_decides_nothing():
    table = start_perfektes_wort("Geli", "Klaus")
    table.press("next")
    run_timer(table)
    before = table.state
    letter, _ = call(table, 1)
    table.step(Typing(f"{letter}UN", table.now))
    assert table.screen.items[1].label == f"{letter}UN▏"
    assert table.state.flow == before.flow and table.state.timer == before.timer
    table.type(f"{letter}UND")
    assert table.lines[-1]["word"] == f"{letter}UND" and table.state.typing == ""


def test_an_open_picker_keeps_the_session_from_being_compacted_into_a_snapshot():
    table = Table()
    table.open_game("scoreboard")
    assert app.can_snapshot(table.state)
    before = table.state
    for event in app.events_to_open(table.state, "letters", 0.0) or []:
        table.step(event)
    assert app.active_picker(table.state) is not None and not app.can_snapshot(table.state)
    assert app.can_snapshot(before)


def test_the_line_in_the_making_is_never_journaled_the_line_sent_is(sim):
    from firmware_host.core.event_codec import decode
    from firmware_host.shell_journal import INPUT

    def journaled():
        journal = sim.appliance.journal
        return [decode(e.payload) for e in journal.events(sim.appliance.shell.journal.session, kinds=(INPUT,))]

    before = journaled()
    sim.send(Typing("9", 1.0))
    sim.send(Typing("90", 1.5))
    assert sim.screen_text().endswith("› 90▏") and journaled() == before
    sim.send(TextEntry("90", 2.0))
    assert journaled()[len(before):] == [TextEntry("90", 2.0)] and sim.state.settings.duration_s == 90


buttons = st.sampled_from(list(Button))
inputs = st.one_of(
    st.builds(Press, buttons, st.just(1.0)), st.builds(LongPress, buttons, st.just(1.0)),
    st.builds(Turn, st.integers(-45, 45), st.just(1.0)), st.builds(Typing, st.text(max_size=50), st.just(1.0)),
    st.builds(TextEntry, st.text(max_size=50), st.just(1.0)),
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["names", "words"]), st.lists(inputs, max_size=40))
def test_any_buttons_and_lines_on_a_text_screen_never_raise_and_a_picked_line_fits_its_field(where, events):
    table = names_stage("game:perfect-words") if where == "names" else start_perfektes_wort("Geli", "Klaus")
    if where == "words":
        table.press("next")
        run_timer(table)
    for event in events:
        table.step(event)
        picker = app.active_picker(table.state)
        if picker is not None:
            assert len(picker.text) <= picker.field.max_len
            assert picker.field == app.entry_field(table.state)
        app.screen(table.state)
