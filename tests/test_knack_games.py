"""Knack das Wort: hand-checked full games (one reaching 50 points) and every refused entry (K1)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from firmware_host.core.games.knack_das_wort.rules import (
    CardsLeft,
    Draw,
    Event,
    Game,
    GameOverError,
    GoOut,
    KnackError,
    PlayAction,
    ReportEnd,
    Setup,
    TurnError,
    WriteWord,
    apply,
    letter_count,
    new_game,
    score,
)

ABC = ("Anna", "Ben", "Cem")


def run(players: Sequence[str], events: Sequence[Event]) -> Game:
    game = new_game(Setup(tuple(players)))
    for event in events:
        game = apply(game, event)
    return game


FIFTY = [
    WriteWord("Anna", "SCHMETTERLING"),  # turn 1: Anna 13
    WriteWord("Ben", "HAUS"),  # 2: Ben 4
    PlayAction("Cem", "Stop"),
    WriteWord("Cem", "KATZE"),  # 3: Cem 5; Anna skips
    WriteWord("Ben", "BAUM"),  # 4: Ben 8
    Draw("Cem"),  # 5
    WriteWord("Anna", "STRAßENBAHN"),  # 6: Anna 24 (ß is one letter)
    WriteWord("Ben", letters=6),  # 7: Ben 14 (count entered)
    WriteWord("Cem", "ÜBERMÜTIG"),  # 8: Cem 14
    WriteWord("Anna", "Fahrradkette"),  # 9: Anna 36
    PlayAction("Ben", "Zieh 2"),
    WriteWord("Ben", "MOND"),  # 10: Ben 18; Cem's task: Zieh 2
    Draw("Cem"),  # 11
    WriteWord("Anna", "WASSER"),  # 12: Anna 42
    GoOut("Ben"),  # Ben first without cards: 28
    WriteWord("Ben", "ROT"),  # 13: Ben 31
    WriteWord("Cem", "KÄSEBROT"),  # 14: Cem 22
    WriteWord("Anna", "REGENBOGEN"),  # 15: Anna 52 → the game ends
]


def test_a_game_reaching_fifty() -> None:
    game = run(ABC, FIFTY)
    assert game.end == "target"
    assert game.reached == "Anna"
    assert [game.points(p) for p in ABC] == [52, 31, 22]
    assert [e.player for e in game.log if e.kind != "out"] == [
        "Anna", "Ben", "Cem", "Anna", "Ben", "Cem", "Anna", "Ben", "Cem", "Anna", "Ben", "Cem", "Anna",
        "Ben", "Cem", "Anna",
    ]  # fmt: skip
    assert game.log[3].kind == "skip" and game.log[3].player == "Anna"
    assert game.log[11].tasks == ("Zieh 2",) and game.log[11].player == "Cem"
    for player, cards in zip(ABC, (3, 0, 5), strict=True):
        game = apply(game, CardsLeft(player, cards))
    standings = score(game)
    assert standings.final
    assert [(s.player, s.letters, s.bonus, s.left, s.points, s.rank) for s in standings.players] == [
        ("Anna", 52, 0, 3, 49, 1),
        ("Ben", 21, 10, 0, 31, 2),
        ("Cem", 22, 0, 5, 17, 3),
    ]
    assert standings.winners == ("Anna",)


@pytest.mark.parametrize(
    "event",
    [WriteWord("Ben", "HAUS"), Draw("Ben"), PlayAction("Ben", "Stop"), GoOut("Cem"), ReportEnd("grid")],
)
def test_entries_after_the_end_are_refused(event: Event) -> None:
    game = run(ABC, FIFTY)
    with pytest.raises(GameOverError) as info:
        apply(game, event)
    assert info.value.code == "game_over"
    assert "Anna reached 52 points" in str(info.value)
    assert "Anna hat 52 Punkte erreicht" in info.value.text("de")


def test_the_going_out_bonus_counts_towards_fifty() -> None:
    game = run(("Ada", "Bo"), [WriteWord("Ada", letters=12), WriteWord("Bo", letters=3)] * 3)
    assert game.points("Ada") == 36 and game.end is None
    game = apply(game, WriteWord("Ada", letters=5))  # 41
    game = apply(game, GoOut("Ada"))  # 51
    assert game.end == "target" and game.reached == "Ada"


def test_a_reported_end_and_a_shared_rank() -> None:
    game = run(ABC, [WriteWord("Anna", "HAUS"), WriteWord("Ben", "MAUS"), WriteWord("Cem", "AST")])
    game = apply(game, ReportEnd("discard"))
    for player, cards in zip(ABC, (2, 2, 0), strict=True):
        game = apply(game, CardsLeft(player, cards))
    standings = score(game)
    # 4 − 2, 4 − 2, 3 − 0: leftovers can turn the order round; equal points share a rank
    assert [(s.player, s.points, s.rank) for s in standings.players] == [
        ("Cem", 3, 1),
        ("Anna", 2, 2),
        ("Ben", 2, 2),
    ]
    assert standings.winners == ("Cem",)


def test_tied_winners_share_first_place() -> None:
    game = run(ABC, [WriteWord("Anna", "HAUS"), WriteWord("Ben", "MAUS"), WriteWord("Cem", "AST")])
    game = apply(game, ReportEnd("grid"))
    for player in ABC:
        game = apply(game, CardsLeft(player, 0))
    standings = score(game)
    assert [(s.player, s.points, s.rank) for s in standings.players] == [
        ("Anna", 4, 1),
        ("Ben", 4, 1),
        ("Cem", 3, 3),
    ]
    assert standings.winners == ("Anna", "Ben")


def test_stop_with_two_players_gives_the_turn_back() -> None:
    game = run(("Ada", "Bo"), [PlayAction("Ada", "STOP"), WriteWord("Ada", "OHR")])
    assert game.current == "Ada"
    assert [e.kind for e in game.log] == ["word", "skip"]


def test_two_stops_skip_only_the_next_player() -> None:
    game = run(ABC, [PlayAction("Anna", "Stop"), PlayAction("Anna", "stop"), Draw("Anna")])
    assert game.current == "Cem"


def test_a_task_lasts_one_turn() -> None:
    game = run(ABC, [PlayAction("Anna", "Zieh 2"), Draw("Anna")])
    assert game.current == "Ben" and game.tasks == ("Zieh 2",)
    game = apply(game, Draw("Ben"))
    assert game.tasks == ()


def test_only_the_first_player_out_gets_the_bonus() -> None:
    game = run(ABC, [GoOut("Ben"), GoOut("Anna")])
    assert (game.points("Ben"), game.points("Anna")) == (10, 0)
    with pytest.raises(KnackError, match="already got rid"):
        apply(game, GoOut("ben"))


def test_out_of_turn_is_refused() -> None:
    game = new_game(Setup(ABC))
    for event in (WriteWord("Ben", "HAUS"), Draw("Cem"), PlayAction("Ben", "Stop")):
        with pytest.raises(TurnError) as info:
            apply(game, event)
        assert "it is Anna's turn" in str(info.value)
        assert "Anna ist am Zug" in info.value.text("de")


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (WriteWord("Anna", letters=0), "no_letters"),
        (WriteWord("Anna", "123"), "no_letters"),
        (WriteWord("Anna", "HAUS", letters=5), "letters_exceed"),
        (WriteWord("Zoe", "HAUS"), "unknown_player"),
        (PlayAction("Anna", "  "), "card_blank"),
        (ReportEnd("bored"), "end_reason"),
        (CardsLeft("Anna", 2), "not_over"),
    ],
)
def test_refused_entries(event: Event, code: str) -> None:
    with pytest.raises(KnackError) as info:
        apply(new_game(Setup(ABC)), event)
    assert info.value.code == code


def test_cards_left_once_and_not_negative() -> None:
    game = apply(new_game(Setup(ABC)), ReportEnd("grid"))
    with pytest.raises(KnackError, match="cannot have -1"):
        apply(game, CardsLeft("Anna", -1))
    game = apply(game, CardsLeft("Anna", 1))
    with pytest.raises(KnackError, match="already counted"):
        apply(game, CardsLeft("Anna", 1))
    assert not score(game).final


@pytest.mark.parametrize("players", [(), ("Anna",)])
def test_at_least_two_players(players: tuple[str, ...]) -> None:
    with pytest.raises(KnackError, match="at least 2"):
        new_game(Setup(players))


def test_letters_are_counted_the_german_way() -> None:
    assert letter_count("STRAßE") == 6
    assert letter_count("Äpfel") == 5
    assert letter_count("E-Mail") == 5
    assert letter_count("") == 0
