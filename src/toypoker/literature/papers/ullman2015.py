"""Ullman (2015), "Optimal Poker Strategies Under Collusion: Simulating Fictitious
Play in Simplified Poker Variants" (Princeton senior thesis, advised by A. Appel).

The printed numbers of the thesis (text in
``../shared/papers/ullman-2015-collusion-fictitious-play-holdem.txt``; the
extraction has no page numbers, so sources are sections, tables and footnotes),
and the expected values his public code wrote (rjullman/poker-nasheq,
``output/*/…-summary.payoffs``; numbers only, no code).

Games (``mercer(players=2|3, variant=smh|mmh)``): Mercer Hold'em, 20 cards
(ranks 2-6, 4 suits that never matter), ante 1, two hole cards each, bet 4 or
fold (no check); SMH one orbit pre-flop, MMH two orbits pre- and post-flop; best
four cards of 2 hole + 2 board.  Hands are written as in the thesis, ``"25"`` =
a 2 and a 5 (ranks 2..6).  Percentages are the probability of betting (or
calling: every non-fold action puts in 4 chips) in percent, as printed.
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCE = "Ullman (2015)"
SPEC = {
    "2P-SMH": "mercer(players=2,variant=smh)",
    "3P-SMH": "mercer(players=3,variant=smh)",
    "2P-MMH": "mercer(players=2,variant=mmh)",
    "3P-MMH": "mercer(players=3,variant=mmh)",
}

#: the 15 two-card holdings (ranks 2..6), pairs and unpaired, as the thesis writes them
HANDS: tuple[str, ...] = tuple(f"{a}{b}" for a in range(2, 7) for b in range(a, 7))

#: Tables 4-6 and 8 list these ten holdings (33, 44, 55, 56, 66 "are always bet on")
TEN = ("22", "23", "24", "25", "26", "34", "35", "36", "45", "46")
ALWAYS_BET_3P_MMH = ("33", "44", "55", "56", "66")


@dataclass(frozen=True)
class BetTable:
    """One printed table of bet percentages.

    ``rows`` maps a row name (the situation, in the thesis's words) to the
    percentages over ``columns`` (holdings, or flops for Table 3).
    ``situations`` says in our terms which decision each row is: ``(seat
    0-based, the public actions before it)`` with ``b`` = bet/call 4 chips,
    ``f`` = fold, ``/[xy]`` the flop, in Ullman's seat order.
    """

    name: str
    source: str
    game: str
    caption: str
    columns: tuple[str, ...]
    rows: dict[str, tuple[float, ...]]
    situations: dict[str, tuple[int, str]]
    hole: str | None = None  # Table 3: the hole cards the row's player holds


TABLE1 = BetTable(
    "Table 1",
    "Ullman (2015), Sec. 4.2, Table 1",
    "2P-SMH",
    "The betting and folding percentages for the nontrivial hands in two-player SMH.",
    ("25", "34", "35"),
    {"1st Player": (66, 65, 100), "2nd Player": (0, 0, 97)},
    {"1st Player": (0, ""), "2nd Player": (1, "b")},
)

#: Sec. 4.2 text: in 2P-SMH players "always bet" these and "never bet" those,
#: "regardless of the betting history"
SMH2_ALWAYS = ("22", "26", "33", "36", "44", "45", "46", "55", "56", "66")
SMH2_NEVER = ("23", "24")

TABLE2 = BetTable(
    "Table 2",
    "Ullman (2015), Sec. 4.2, Table 2",
    "2P-MMH",
    "The equilibrium strategy for the first bet in 2P-MMH. Only the hole cards with "
    "nontrivial equilibrium strategies are given (the other hands mimic 2P-SMH).",
    ("22", "23", "24", "25", "26", "34", "35", "36", "45"),
    {
        "1st Player": (98.1, 0.2, 0.2, 12.4, 27.1, 0.3, 66.5, 100, 100),
        "2nd Player": (46.2, 0.2, 0.3, 0.5, 1.0, 0.5, 0.9, 34.6, 46.2),
    },
    {"1st Player": (0, ""), "2nd Player": (1, "b")},
)

TABLE3 = BetTable(
    "Table 3",
    "Ullman (2015), Sec. 4.2, Table 3",
    "2P-MMH",
    "The equilibrium strategy for the first bet in the public round in 2P-MMH given "
    "that the player has 45 hole cards. Only the flops with nontrivial equilibrium "
    "strategies are given. The other flops are always bet on at equilibrium.",
    ("22", "23", "26", "33", "36", "46", "56", "66"),
    {
        "1st Player": (20.5, 93.9, 62.9, 47.7, 24.7, 100, 100, 53.6),
        "2nd Player": (30.0, 22.7, 34.9, 7.6, 46.1, 60.9, 98.1, 33.8),
    },
    # after both bet in both pre-flop orbits; the 2nd player answers a bet
    {"1st Player": (0, "bbbb/"), "2nd Player": (1, "bbbb/b")},
    hole="45",
)

TABLE4 = BetTable(
    "Table 4",
    "Ullman (2015), Sec. 4.3, Table 4",
    "3P-MMH",
    "The equilibrium strategy for the second player's first bet in 3P-MMH. The hands "
    "not shown (33, 44, 55, 56, and 66) are always bet on.",
    TEN,
    {
        "1st Player Folds": (84.7, 1.9, 2.4, 4.0, 100, 4.0, 62.6, 100, 100, 100),
        "1st Player Bets": (37.4, 1.3, 1.9, 3.0, 5.6, 3.0, 5.1, 12.6, 12.1, 53.0),
    },
    {"1st Player Folds": (1, "f"), "1st Player Bets": (1, "b")},
)

TABLE5 = BetTable(
    "Table 5",
    "Ullman (2015), Sec. 4.3, Table 5",
    "3P-MMH",
    "The equilibrium strategy for the first bet in 3P-MMH assuming no one has yet "
    "folded. The hands not shown (33, 44, 55, 56, and 66) are always bet on.",
    TEN,
    {
        "1st Player": (76.1, 1.3, 1.9, 3.0, 5.1, 3.0, 4.6, 36.3, 33.6, 100),
        "2nd Player": (37.4, 1.3, 1.9, 3.0, 5.6, 3.0, 5.1, 12.6, 12.1, 53.0),
        "3rd Player": (100, 1.3, 1.9, 3.5, 6.2, 3.0, 6.2, 11.6, 11.6, 24.5),
    },
    {"1st Player": (0, ""), "2nd Player": (1, "b"), "3rd Player": (2, "bb")},
)

TABLE6 = BetTable(
    "Table 6",
    "Ullman (2015), Sec. 4.3, Table 6",
    "3P-MMH",
    "The equilibrium strategy for the third player's first bet in 3P-MMH. The hands "
    "not shown (33, 44, 55, 56, and 66) are always bet on.",
    TEN,
    {
        "1st Player Folds": (70.7, 2.4, 3.0, 5.1, 12.6, 4.6, 9.4, 100, 80.9, 100),
        "2nd Player Folds": (20.7, 2.4, 3.0, 4.6, 9.9, 4.6, 8.3, 16.9, 16.9, 76.6),
    },
    {"1st Player Folds": (2, "fb"), "2nd Player Folds": (2, "bf")},
)

TABLE8 = BetTable(
    "Table 8",
    "Ullman (2015), Sec. 5 (Weak Collusion), Table 8",
    "3P-MMH",
    "The equilibrium strategy for the third player's first bet in 3P-MMH with and "
    "without weak collusion by the first two players. ... Also note that the hole "
    "card holdings not shown in the table are always bet on.",
    TEN,
    {
        "No Col, No Folding": (100, 1.3, 1.9, 3.5, 6.2, 3.0, 6.2, 11.6, 11.6, 24.5),
        "No Col, 1st Player Folds": (70.7, 2.4, 3.0, 5.1, 12.6, 4.6, 9.4, 100, 80.9, 100),
        "No Col, 2nd Player Folds": (20.7, 2.4, 3.0, 4.6, 9.9, 4.6, 8.3, 16.9, 16.9, 76.6),
        "Col, No Folding": (100, 2.0, 2.0, 3.7, 6.5, 3.1, 6.5, 12.7, 12.7, 36.4),
        "Col, 1st Player Folds": (30.2, 2.5, 3.1, 5.9, 13.8, 5.4, 9.9, 100, 68.6, 100),
        "Col, 2nd Player Folds": (46.6, 2.5, 3.1, 5.4, 12.1, 4.8, 9.3, 28.5, 41.5, 100),
    },
    {
        "No Col, No Folding": (2, "bb"),
        "No Col, 1st Player Folds": (2, "fb"),
        "No Col, 2nd Player Folds": (2, "bf"),
        "Col, No Folding": (2, "bb"),
        "Col, 1st Player Folds": (2, "fb"),
        "Col, 2nd Player Folds": (2, "bf"),
    },
)

BET_TABLES: tuple[BetTable, ...] = (TABLE1, TABLE2, TABLE3, TABLE4, TABLE5, TABLE6, TABLE8)

# --------------------------------------------------------------- Table 7
#: Table 7, "Collusion Payoffs in 3P-MMH": per player, (Public, Private,
#: Suspicious); the weak-collusion block is printed "(x 10^-3)"; the values here
#: are the printed ones times that factor.  Caption: "players A and B are
#: potentially colluding", "All payoffs have an error of 0.00577", dealer rotates.
TABLE7_SCENARIOS = ("Public", "Private", "Suspicious")
TABLE7_STRONG: dict[str, tuple[float, float, float]] = {
    "A": (-0.178, -0.195, -0.0316),
    "B": (0.0889, 0.0977, 0.0127),
    "C": (0.0889, 0.0977, 0.0189),
}
TABLE7_WEAK_PRINTED: dict[str, tuple[float, float, float]] = {
    "A": (-0.996, -0.748, -0.448),
    "B": (0.498, 0.374, 0.325),
    "C": (0.498, 0.374, 0.122),
}
TABLE7_WEAK_FACTOR = 1e-3
TABLE7_ERROR = 0.00577
#: Sec. 5 and Sec. 6: "the noncolluding player loses over 17.5% of an ante each game"
NONCOLLUDER_LOSS_AT_LEAST = 0.175

# --------------------------------------------------------------- expected values
#: (game, source, (values per seat), eps or None): the text's figures
TEXT_VALUES: tuple[tuple[str, str, tuple[float, ...], float | None], ...] = (
    ("2P-SMH", "Sec. 4.2 text ('expected value of 0.1 to the second player')", (-0.1, 0.1), None),
    ("2P-MMH", "Sec. 4.2 text ('0.4 to the second player')", (-0.4, 0.4), None),
    ("3P-SMH", "Sec. 4.3 text ('-0.29, 0.008, 0.282')", (-0.29, 0.008, 0.282), None),
)


@dataclass(frozen=True)
class CodeRun:
    """One run of his code as its output files record it (rjullman/poker-nasheq,
    ``output/<game>/...``): the eps (``max regret``), the iterations and the last
    largest gain printed (``.out``), the expected values (``-summary.payoffs``)."""

    game: str
    source: str
    eps: float
    iterations: int
    last_gain: float
    values: tuple[float, ...]


CODE_RUNS: tuple[CodeRun, ...] = (
    CodeRun(
        "2P-SMH",
        "poker-nasheq output/smh2p/smh2p.out and smh2p-summary.payoffs",
        0.001,
        704,
        9.9963959053187e-4,
        (-0.10400376104349932, 0.10400376104349932),
    ),
    CodeRun(
        "3P-SMH",
        "poker-nasheq output/smh3p/wc/12.out and 12-summary.payoffs (no collusion)",
        0.01,
        116,
        0.009943746053627897,
        (-0.09050262180872495, 0.002797609524848102, 0.0877050122838769),
    ),
    CodeRun(
        "2P-MMH",
        "poker-nasheq output/mmh2p/mmh2p.out and mmh2p-summary.payoffs",
        0.01,
        1901,
        0.009995935109385012,
        (-0.4177112935530961, 0.4177112935530961),
    ),
)


@dataclass(frozen=True)
class CollusionRun:
    """One collusion run of his code on 3P-SMH (rjullman/poker-nasheq,
    ``output/smh3p/{sc,wc}/<team>...``): ``sc`` strong, ``wc`` weak collusion, win
    sharing; his file names the team by 0-based seats (``12`` = our seats 2 and 3).
    The ``-summary.payoffs`` file gives the values of the collusion game's fictitious
    play ("collusion", our Public), of the team playing it against the outsider's
    no-collusion strategy ("mixed (collusion)", our Private, collusion payoffs) and of
    the outsider playing it against the team's no-collusion strategies ("mixed (no
    collusion)", our Suspicious, plain payoffs); the ``.out`` file the iterations and
    the last largest gain of the collusion run."""

    source: str
    strength: str
    team: str  # 1-based seats, ours
    eps: float
    iterations: int
    last_gain: float
    public: tuple[float, float, float]
    private: tuple[float, float, float]
    suspicious: tuple[float, float, float]


def _run(path: str, strength: str, team: str, it: int, last: float, *vals: float) -> CollusionRun:
    v = tuple(tuple(vals[3 * k : 3 * k + 3]) for k in range(3))
    src = f"poker-nasheq output/smh3p/{path}.out and {path}-summary.payoffs"
    return CollusionRun(src, strength, team, 0.01, it, last, *v)  # type: ignore[arg-type]


#: his 3P-SMH collusion runs at eps 0.01 (``wc/01`` ran at eps 0.1 against a no-collusion
#: run at 0.1 too: left out)
COLLUSION_RUNS: tuple[CollusionRun, ...] = (
    _run("sc/01", "strong", "12", 97, 0.009902792843840755,
         0.030482399910033, 0.030482399910033, -0.060964799820066,
         0.03578304258354742, 0.03578304258354742, -0.07156608516709484,
         -0.08224460883864336, 0.026611539963912804, 0.05563306887473048),
    _run("sc/02", "strong", "13", 85, 0.009993005991348045,
         0.06599558916879808, -0.13199117833759616, 0.06599558916879808,
         0.06900913942020846, -0.13801827884041692, 0.06900913942020846,
         -0.08988978582513862, -0.012163649025403928, 0.10205343485054266),
    _run("sc/12", "strong", "23", 68, 0.009904884298550937,
         -0.19202163996787378, 0.09601081998393689, 0.09601081998393689,
         -0.1878853829324441, 0.09394269146622206, 0.09394269146622206,
         -0.10158424629908672, 0.004186032326676928, 0.09739821397240983),
    _run("wc/02", "weak", "13", 79, 0.009905542850622347,
         -0.0011215160276455624, 0.002243032055291125, -0.0011215160276455624,
         -0.002065902683154413, 0.004131805366308826, -0.002065902683154413,
         -0.08912216198714967, -6.735287310979943e-4, 0.08979569071824775),
    _run("wc/12", "weak", "23", 61, 0.009857326470422118,
         -0.0853331623723073, 0.04266658118615365, 0.04266658118615365,
         -0.08086172441064596, 0.04043086220532298, 0.04043086220532298,
         -0.09485856141207726, 0.005022039743534268, 0.08983652166854293),
)  # fmt: skip
# --------------------------------------------------------------- his 3P-MMH runs
#: his 3P-MMH runs as the repository keeps them (commit a7c3214, "added correctly
#: computed nash eq for mmh3p"; ``run.sh``: ``ComputeNash i j 0.1``): every run stops at
#: eps 0.1, not the 0.01 of Sec. 3.4.  The no-collusion run (the second block of each
#: ``output/mmh3p/{sc,wc}/<team>.out``, the same in all six) takes 185 iterations
MMH3_CODE_EPS = 0.1
MMH3_NO_COLLUSION_ITERATIONS = 185
#: his tree's node counts, the first line of each ``.out`` (footnote 5: 2P-SMH
#: "approximately 10^4 nodes"; Sec. 3.4: 3P-MMH "around 5 million nodes")
CODE_TREE_NODES = {"2P-SMH": 8_887, "2P-MMH": 36_267, "3P-SMH": 459_052, "3P-MMH": 5_001_562}


def _mmh(path: str, strength: str, team: str, it: int, last: float, *vals: float) -> CollusionRun:
    v = tuple(tuple(vals[3 * k : 3 * k + 3]) for k in range(3))
    src = f"poker-nasheq output/mmh3p/{path}.out and {path}-summary.payoffs"
    return CollusionRun(src, strength, team, MMH3_CODE_EPS, it, last, *v)  # type: ignore[arg-type]


#: his 3P-MMH collusion runs (eps 0.1): public ("collusion"), private ("mixed
#: (collusion)"), suspicious ("mixed (no collusion)") values per seat, as for 3P-SMH
MMH3_COLLUSION_RUNS: tuple[CollusionRun, ...] = (
    _mmh("sc/01", "strong", "12", 175, 0.09993717293090168,
         -0.10758475163471194, -0.10758475163471194, 0.21516950326942388,
         -0.07944714044756995, -0.07944714044756995, 0.1588942808951399,
         -0.33545337873627556, -0.049096864617792196, 0.3845502433540679),
    _mmh("sc/02", "strong", "13", 135, 0.0992787882950528,
         0.12847086694718426, -0.25694173389436853, 0.12847086694718426,
         0.13143845194937345, -0.2628769038987469, 0.13143845194937345,
         -0.3568747550167088, -0.12100662134815374, 0.4778813763648625),
    _mmh("sc/12", "strong", "23", 109, 0.09955014271071477,
         -0.3830037023139419, 0.19150185115697094, 0.19150185115697094,
         -0.391006993961361, 0.1955034969806805, 0.1955034969806805,
         -0.38683202020489194, -0.08924207122046174, 0.4760740914253536),
    _mmh("wc/01", "weak", "12", 176, 0.09953096192397648,
         -0.20572741783124204, -0.20572741783124204, 0.4114548356624841,
         -0.20480774752784636, -0.20480774752784636, 0.4096154950556927,
         -0.34706990668153465, -0.08220840754795787, 0.4292783142294925),
    _mmh("wc/02", "weak", "13", 143, 0.09925279760408853,
         0.05158495905555855, -0.1031699181111171, 0.05158495905555855,
         0.04703766624969593, -0.09407533249939186, 0.04703766624969593,
         -0.35061339608851105, -0.10570891349937622, 0.45632230958788733),
    _mmh("wc/12", "weak", "23", 99, 0.09904583914096096,
         -0.313686065310505, 0.1568430326552525, 0.1568430326552525,
         -0.2849664054531449, 0.14248320272657244, 0.14248320272657244,
         -0.3986283684216471, -0.07201711279660186, 0.4706454812182489),
)  # fmt: skip
#: the bet percentages of his 3P-MMH runs at the cells of Tables 4-6 and 8: the
#: no-collusion run (``output/mmh3p/*/<team>-no-collusion.nash``, identical in all six)
#: and, for Table 8's "Col" rows, the weak collusion of seats 1 and 2
#: (``output/mmh3p/wc/01-collusion.nash``); his files print probabilities to 3 decimals
MMH3_RUN_BETS: dict[str, dict[str, tuple[float, ...]]] = {
    "Table 4": {
        "1st Player Folds": (84.7, 1.9, 2.4, 4.0, 99.7, 4.0, 62.6, 99.7, 99.7, 99.7),
        "1st Player Bets": (37.4, 1.3, 1.9, 3.0, 5.6, 3.0, 5.1, 12.6, 12.1, 53.0),
    },
    "Table 5": {
        "1st Player": (76.1, 1.3, 1.9, 3.0, 5.1, 3.0, 4.6, 36.3, 33.6, 99.7),
        "2nd Player": (37.4, 1.3, 1.9, 3.0, 5.6, 3.0, 5.1, 12.6, 12.1, 53.0),
        "3rd Player": (99.7, 1.3, 1.9, 3.5, 6.2, 3.0, 6.2, 11.6, 11.6, 24.5),
    },
    "Table 6": {
        "1st Player Folds": (70.7, 2.4, 3.0, 5.1, 12.6, 4.6, 9.4, 99.7, 80.9, 99.7),
        "2nd Player Folds": (20.7, 2.4, 3.0, 4.6, 9.9, 4.6, 8.3, 16.9, 16.9, 76.6),
    },
    "Table 8": {
        "No Col, No Folding": (99.7, 1.3, 1.9, 3.5, 6.2, 3.0, 6.2, 11.6, 11.6, 24.5),
        "No Col, 1st Player Folds": (70.7, 2.4, 3.0, 5.1, 12.6, 4.6, 9.4, 99.7, 80.9, 99.7),
        "No Col, 2nd Player Folds": (20.7, 2.4, 3.0, 4.6, 9.9, 4.6, 8.3, 16.9, 16.9, 76.6),
        "Col, No Folding": (99.7, 2.0, 2.0, 3.7, 6.5, 3.1, 6.5, 12.7, 12.7, 36.4),
        "Col, 1st Player Folds": (30.2, 2.5, 3.1, 5.9, 13.8, 5.4, 9.9, 99.7, 68.6, 99.7),
        "Col, 2nd Player Folds": (46.6, 2.5, 3.1, 5.4, 12.1, 4.8, 9.3, 28.5, 41.5, 99.7),
    },
}

#: footnote 6: strong collusion's gain in 3P-SMH, "on the order of 10^-4"
FOOTNOTE6_GAIN_ORDER = 1e-4


#: the values as NOTES.md rounds them (3 significant digits)
NOTES_VALUES = {
    "2P-SMH": (-0.104, 0.104),
    "3P-SMH": (-0.0905, 0.0028, 0.0877),
    "2P-MMH": (-0.418, 0.418),
}

# --------------------------------------------------------------- sizes and runs
#: the thesis's sizes and run figures, as printed (not checked: runs of his Java)
RUN_FIGURES: dict[str, tuple[float, str]] = {
    "3P-MMH nodes (about)": (5_000_000, "Sec. 3.4: 'around 5 million nodes'"),
    "3P-MMH memory GB (over)": (4, "Sec. 3.4: 'over 4 gigabytes of memory'"),
    "3P-MMH hours to eps 0.01": (10, "Sec. 3.4: 'roughly 10 hours'"),
    "3P-MMH iterations to eps 0.01": (3600, "Sec. 3.4: '3600 iterations of fictitious play'"),
    "cores": (16, "footnote 3: dual eight-core 2.8GHz Xeon E5 2680 v2"),
    "collusion hours (up to)": (24, "Sec. 3.4: 'up to roughly 24 hours'"),
    "collusion iterations": (8500, "Sec. 3.4: '8500 iterations of fictitious play'"),
    "2P-SMH nodes (about)": (10**4, "footnote 5: 'approximately 10^4 nodes'"),
    "3P-SMH strong-collusion gain (order)": (1e-4, "footnote 6: 'on the order of 10^-4'"),
}
MMH3_NODES_ABOUT = 5_000_000
MMH3_EPS = 0.01
#: Sec. 4.2: "in the two-player game there can be at most 8 bets for a total pot
#: size of 34 chips (there are 2 ante chips)" (2P-MMH)
MMH2_MAX_BETS = 8
MMH2_MAX_POT = 34
#: Sec. 4.3: "there are more situations -- 15 in 3P-SMH, versus 3 in 2P-SMH -- where
#: the equilibrium strategy has some ... amount of bluffing"; "In every situation
#: players either bet or fold at least 90% of the time" (3P-SMH)
SMH3_MIXED_SITUATIONS = 15
SMH2_MIXED_SITUATIONS = 3
SMH3_DECISIVE_AT_LEAST = 0.90
#: NOTES.md (from the code): plain game-tree sizes and 3P-MMH information sets
TREE_NODES = {"3P-SMH": 459_052, "3P-MMH": 5_001_562}
MMH3_INFOSETS = 9_720


__all__ = [
    "ALWAYS_BET_3P_MMH",
    "BET_TABLES",
    "BetTable",
    "CODE_RUNS",
    "CODE_TREE_NODES",
    "COLLUSION_RUNS",
    "CodeRun",
    "CollusionRun",
    "HANDS",
    "MMH3_CODE_EPS",
    "MMH3_COLLUSION_RUNS",
    "MMH3_NO_COLLUSION_ITERATIONS",
    "MMH3_RUN_BETS",
    "NOTES_VALUES",
    "SOURCE",
    "SPEC",
    "TABLE1",
    "TABLE2",
    "TABLE3",
    "TABLE4",
    "TABLE5",
    "TABLE6",
    "TABLE7_STRONG",
    "TABLE7_WEAK_PRINTED",
    "TABLE8",
    "TEN",
    "TEXT_VALUES",
]
