"""Hand-checked Quiddler games (2, 4 and 8 players) shared by the tests.

Every expected number below was worked out by hand from the card values in RULES.md §2
(A2 B8 C8 D5 E2 F6 G6 H7 I2 J13 K8 L3 M5 N5 O2 P6 Q15 R5 S3 T3 U4 V11 W10 X12 Y4 Z14,
QU9 IN7 ER7 CL10 TH9), not by the code under test.

A round is (lays, challenges, expected):
- lays: player -> (words in card notation, unused cards in notation, went_out)
- challenges: (challenger, owner, word, allowed)
- expected: player -> (card score, challenge result, most-words bonus, longest-word bonus, running total)
A player missing from `lays` is a filler: no words, unused cards dealt from what is left of the deck
(so their card score is 0 by the floor).
"""

from __future__ import annotations

Lays = dict[str, tuple[list[str], str, bool]]
Challenges = list[tuple[str, str, str, bool]]
Expected = dict[str, tuple[int, int, int, int, int]]
Round = tuple[Lays, Challenges, Expected]

# --- two players, bonus: longest word (the default), Ann deals first -------------------------------
TWO_PLAYERS = ["Ann", "Bob"]
TWO_GAME: list[Round] = [
    # R1 3 cards. Bob: AT 5 - Z 14 -> 0 (card floor); his lost bet on CAT -13 -> total floor 0.
    (
        {"Ann": (["CAT"], "", True), "Bob": (["AT"], "Z", False)},
        [("Bob", "Ann", "CAT", True)],
        {"Ann": (13, 0, 0, 10, 23), "Bob": (0, -13, 0, 0, 0)},
    ),
    # R2 4 cards. ODE (3 cards) ties (TH)E (2 cards, 3 letters): no longest-word bonus.
    (
        {"Ann": (["ODE"], "Q", False), "Bob": (["(TH)E", "AT"], "", True)},
        [],
        {"Ann": (0, 0, 0, 0, 23), "Bob": (16, 0, 0, 0, 16)},
    ),
    # R3 5 cards. (QU)IT and QUIT both 4 letters: tie. Ann challenges QUIT, it stands: Ann -24.
    (
        {"Ann": (["(QU)IT", "AT"], "", True), "Bob": (["QUIT"], "E", False)},
        [("Ann", "Bob", "QUIT", True)],
        {"Ann": (19, -24, 0, 0, 18), "Bob": (22, 0, 0, 0, 38)},
    ),
    # R4 6 cards. JAR is rejected: it counts for nothing (so Bob's 3 letters win alone) and Ann pays 20.
    (
        {"Ann": (["JAR", "OX"], "E", False), "Bob": (["TEN", "CAT"], "", True)},
        [("Bob", "Ann", "JAR", False)],
        {"Ann": (12, -20, 0, 0, 10), "Bob": (23, 0, 0, 10, 71)},
    ),
    # R5 7 cards.
    (
        {"Ann": (["IDEA", "SEA"], "", True), "Bob": (["ZOO"], "XVJQ", False)},
        [],
        {"Ann": (18, 0, 0, 10, 38), "Bob": (0, 0, 0, 0, 71)},
    ),
    # R6 8 cards.
    (
        {"Ann": (["RATE", "TO"], "WK", False), "Bob": (["STONE", "(CL)AN"], "", True)},
        [],
        {"Ann": (0, 0, 0, 0, 38), "Bob": (32, 0, 0, 10, 113)},
    ),
    # R7 9 cards.
    (
        {"Ann": (["(IN)TO", "MAD", "RED"], "", True), "Bob": (["DOG", "EAT"], "VVB", False)},
        [],
        {"Ann": (36, 0, 0, 10, 84), "Bob": (0, 0, 0, 0, 113)},
    ),
    # R8 10 cards.
    (
        {"Ann": (["STONE", "NOTE"], "Z", False), "Bob": (["QUIT", "(QU)IT", "CAT"], "", True)},
        [],
        {"Ann": (13, 0, 0, 10, 107), "Bob": (51, 0, 0, 0, 164)},
    ),
]
TWO_FINAL = {"Ann": 107, "Bob": 164}

# --- four players, Dora deals first (so Ann starts round 1) ------------------------------------------
FOUR_PLAYERS = ["Ann", "Bob", "Cem", "Dora"]
FOUR_DEALER = "Dora"
FOUR_GAME: list[Round] = [
    # R1 3 cards: three players with one word each tie for most words.
    (
        {
            "Ann": (["CAT"], "", True),
            "Bob": (["AT"], "E", False),
            "Cem": (["TO"], "S", False),
            "Dora": ([], "QXJ", False),
        },
        [],
        {"Ann": (13, 0, 0, 10, 23), "Bob": (3, 0, 0, 0, 3), "Cem": (2, 0, 0, 0, 2), "Dora": (0, 0, 0, 0, 0)},
    ),
    # R2 4 cards: Cem's challenge of AS fails: 2 - 5 -> total floor 0.
    (
        {
            "Ann": (["NOTE"], "", False),
            "Bob": (["AT", "TO"], "", True),
            "Cem": (["ODE"], "Q", False),
            "Dora": (["IT", "AS"], "", False),
        },
        [("Cem", "Dora", "AS", True)],
        {
            "Ann": (12, 0, 0, 10, 45),
            "Bob": (10, 0, 0, 0, 13),
            "Cem": (0, -5, 0, 0, 0),
            "Dora": (10, 0, 0, 0, 10),
        },
    ),
    # R3 5 cards: Bob's OX is rejected, so Cem alone has the most words.
    (
        {
            "Ann": (["TEA"], "ZZ", False),
            "Bob": (["JAR", "OX"], "", False),
            "Cem": (["(QU)IT", "AT"], "", True),
            "Dora": (["STONE"], "", False),
        },
        [("Dora", "Bob", "OX", False)],
        {
            "Ann": (0, 0, 0, 0, 45),
            "Bob": (20, -14, 0, 0, 19),
            "Cem": (19, 0, 10, 0, 29),
            "Dora": (15, 0, 0, 10, 35),
        },
    ),
    # R4 6 cards: IDEA (4 cards) ties (CL)AN (3 cards, 4 letters) for longest: nobody gets it.
    (
        {
            "Ann": (["IDEA", "TO"], "", False),
            "Bob": (["(CL)AN"], "WWV", False),
            "Cem": (["RED", "NO"], "B", False),
            "Dora": (["CAT", "DOG"], "", True),
        },
        [],
        {
            "Ann": (16, 0, 0, 0, 61),
            "Bob": (0, 0, 0, 0, 19),
            "Cem": (11, 0, 0, 0, 40),
            "Dora": (26, 0, 0, 0, 61),
        },
    ),
    # R5 7 cards: Cem lays all his cards without having gone out.
    (
        {
            "Ann": (["STONE", "AT"], "", True),
            "Bob": (["(TH)E", "(IN)TO"], "SS", False),
            "Cem": (["RATE", "ODE"], "", False),
            "Dora": (["ZOO"], "QQXJ", False),
        },
        [],
        {
            "Ann": (20, 0, 0, 10, 91),
            "Bob": (17, 0, 0, 0, 36),
            "Cem": (21, 0, 0, 0, 61),
            "Dora": (0, 0, 0, 0, 61),
        },
    ),
    # R6 8 cards: all four have a 4-letter word; Ann's failed challenge of QUIT costs her 24.
    (
        {
            "Ann": (["(QU)IT", "EAT"], "KB", False),
            "Bob": (["QUIT", "RATE"], "", True),
            "Cem": (["NOTE", "TO", "AS"], "", False),
            "Dora": (["IDEA", "MAD"], "P", False),
        },
        [("Ann", "Bob", "QUIT", True)],
        {
            "Ann": (5, -24, 0, 0, 72),
            "Bob": (36, 0, 0, 0, 72),
            "Cem": (22, 0, 10, 0, 93),
            "Dora": (17, 0, 0, 0, 78),
        },
    ),
    # R7 9 cards.
    (
        {
            "Ann": (["TEN", "NET", "AT"], "E", False),
            "Bob": (["DOG", "TO"], "VVWW", False),
            "Cem": (["JAR", "OX", "IDEA"], "", True),
            "Dora": (["STONE", "CAT"], "G", False),
        },
        [],
        {
            "Ann": (23, 0, 0, 0, 95),
            "Bob": (0, 0, 0, 0, 72),
            "Cem": (45, 0, 0, 0, 138),
            "Dora": (22, 0, 0, 10, 110),
        },
    ),
    # R8 10 cards: Cem's (ER)A is rejected, which breaks his tie with Dora for most words.
    (
        {
            "Ann": (["STONE", "NOTE"], "Z", False),
            "Bob": (["QUIT", "CAT", "TO"], "J", False),
            "Cem": (["(ER)A", "AS", "SEA", "NO"], "X", False),
            "Dora": (["(CL)AN", "(TH)E", "RED", "IT"], "", True),
        },
        [("Bob", "Cem", "(ER)A", False)],
        {
            "Ann": (13, 0, 0, 10, 118),
            "Bob": (29, 0, 0, 0, 101),
            "Cem": (7, -9, 0, 0, 136),
            "Dora": (45, 0, 10, 0, 165),
        },
    ),
]
FOUR_FINAL = {"Ann": 118, "Bob": 101, "Cem": 136, "Dora": 165}

# --- eight players, Ann deals first; players not listed in a round are fillers ------------------------
EIGHT_PLAYERS = ["Ann", "Bob", "Cem", "Dora", "Eva", "Finn", "Gus", "Hal"]
EIGHT_GAME: list[Round] = [
    (
        {"Bob": (["CAT"], "", True), "Cem": (["AT"], "E", False), "Dora": (["TO"], "X", False)},
        [],
        {"Bob": (13, 0, 0, 10, 23), "Cem": (3, 0, 0, 0, 3), "Dora": (0, 0, 0, 0, 0)},
    ),
    # Hal (a filler at 0) loses his challenge of (TH)E: floor 0. Dora's ODE ties Eva's (TH)E.
    (
        {"Cem": (["NO", "AT"], "", True), "Dora": (["ODE"], "S", False), "Eva": (["(TH)E"], "ZZ", False)},
        [("Hal", "Eva", "(TH)E", True)],
        {
            "Cem": (12, 0, 10, 0, 25),
            "Dora": (6, 0, 0, 0, 6),
            "Eva": (0, 0, 0, 0, 0),
            "Hal": (0, -11, 0, 0, 0),
        },
    ),
    (
        {"Dora": (["STONE"], "", True), "Eva": (["IDEA"], "Q", False), "Finn": (["AT", "TO"], "E", False)},
        [],
        {"Dora": (15, 0, 0, 10, 31), "Eva": (0, 0, 0, 0, 0), "Finn": (8, 0, 10, 0, 18)},
    ),
    # Gus's JAR is rejected: 12 - 20 = -8 -> total floor 0; Finn's (CL)AN is the longest (4 letters).
    (
        {
            "Eva": (["CAT", "DOG"], "", True),
            "Finn": (["(CL)AN"], "XYZ", False),
            "Gus": (["JAR", "OX"], "E", False),
        },
        [("Finn", "Gus", "JAR", False)],
        {"Eva": (26, 0, 10, 0, 36), "Finn": (0, 0, 0, 10, 28), "Gus": (12, -20, 0, 0, 0)},
    ),
    (
        {
            "Finn": (["RATE", "ODE"], "", True),
            "Gus": (["(IN)TO", "AS"], "WW", False),
            "Hal": (["NOTE", "IT"], "K", False),
        },
        [],
        {"Finn": (21, 0, 0, 0, 49), "Gus": (0, 0, 0, 0, 0), "Hal": (9, 0, 0, 0, 9)},
    ),
    (
        {
            "Gus": (["QUIT", "RATE"], "", True),
            "Hal": (["STONE", "AT"], "P", False),
            "Ann": (["(QU)IT", "EAT", "NO"], "", False),
        },
        [],
        {"Gus": (36, 0, 0, 0, 36), "Hal": (14, 0, 0, 10, 33), "Ann": (28, 0, 10, 0, 38)},
    ),
    (
        {
            "Hal": (["JAR", "OX", "IDEA"], "", True),
            "Ann": (["TEN", "NET", "AT"], "E", False),
            "Bob": (["STONE", "CAT"], "G", False),
        },
        [],
        {"Hal": (45, 0, 0, 0, 78), "Ann": (23, 0, 0, 0, 61), "Bob": (22, 0, 0, 10, 55)},
    ),
    # Bob challenges RED and it stands: -12 for him.
    (
        {
            "Ann": (["(CL)AN", "(TH)E", "RED", "IT"], "", True),
            "Bob": (["STONE", "NOTE"], "Z", False),
            "Cem": (["QUIT", "CAT", "TO"], "J", False),
        },
        [("Bob", "Ann", "RED", True)],
        {"Ann": (45, 0, 10, 0, 116), "Bob": (13, -12, 0, 10, 66), "Cem": (29, 0, 0, 0, 54)},
    ),
]
EIGHT_FINAL = {"Ann": 116, "Bob": 66, "Cem": 54, "Dora": 31, "Eva": 36, "Finn": 49, "Gus": 36, "Hal": 78}
