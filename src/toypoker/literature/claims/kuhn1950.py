"""The claims of Kuhn (1950), "A simplified two-person poker"."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from toypoker.evaluation import evaluate
from toypoker.literature.claims.base import Claim, Context, Row, certify, fmt
from toypoker.literature.papers import kuhn1950

F = Fraction


def _kuhn_family(c: Claim, ctx: Context) -> Iterator[Row]:
    gammas = [F(0), F(1, 3), F(1, 2), F(1)] + [
        F(int(ctx.rng.integers(0, 97)), 96) for _ in range(4)
    ]
    for gm in gammas:
        yield certify(
            c,
            f"gamma={gm}",
            ctx.game("kuhn(players=2)"),
            kuhn1950.family(gm),
            (F(-1, 18), F(1, 18)),
        )


def _kuhn_basic(c: Claim, ctx: Context) -> Iterator[Row]:
    for name, mix in kuhn1950.BASIC.items():
        got = kuhn1950.mixed_to_behaviour_I(mix)
        want = kuhn1950.BASIC_BEHAVIOUR[name]
        if got != want:
            cert = certify(
                c,
                name,
                ctx.game("kuhn(players=2)"),
                kuhn1950.behaviour(*got, F(1, 3), F(1, 3)),
                (F(-1, 18), F(1, 18)),
            )
            on_family = got[0] == got[2] / 3 and got[1] == got[2] / 3 + F(1, 3)
            yield Row(
                c.id,
                c.source,
                name,
                "disagrees",
                f"the mixture's behaviour is {fmt(got)}, printed {fmt(want)}; "
                f"{fmt(got)} {'lies on' if on_family else 'is off'} the family "
                f"(alpha = gamma/3, beta = gamma/3 + 1/3) and is {cert.status} optimal "
                f"(value -1/18)",
                {"behaviour": [str(x) for x in got], **cert.exact},
            )
            continue
        prof = kuhn1950.behaviour(*got, F(1, 3), F(1, 3))
        row = certify(c, name, ctx.game("kuhn(players=2)"), prof, (F(-1, 18), F(1, 18)))
        yield Row(
            c.id,
            c.source,
            name,
            row.status,
            f"(alpha, beta, gamma) = {fmt(got)}; {row.detail}",
            row.exact,
        )
    for i, mix in enumerate(kuhn1950.II_OPTIMAL):
        got = kuhn1950.mixed_to_behaviour_II(mix)
        status = "verified" if got == (F(1, 3), F(1, 3)) else "disagrees"
        yield Row(c.id, c.source, f"II optimal #{i + 1}", status, f"(xi, eta) = {fmt(got)}")


def _kuhn_matrices(c: Claim, ctx: Context) -> Iterator[Row]:
    g = ctx.game("kuhn(players=2)")
    bad = []
    for i, x in enumerate(kuhn1950.REDUCED_ROWS):
        for j, y in enumerate(kuhn1950.REDUCED_COLS):
            v = 6 * evaluate(g, kuhn1950.pure_profile(g, x, y)).values[0]
            if v != kuhn1950.REDUCED[i][j]:
                bad.append(f"{x} vs {y}: {v}, printed {kuhn1950.REDUCED[i][j]}")
    yield Row(
        c.id,
        c.source,
        "reduced 8x4 matrix (x6)",
        "disagrees" if bad else "verified",
        "; ".join(bad[:3]) or "all 32 entries equal",
    )
    bad = []
    for x in kuhn1950.PURE_I:
        for y in kuhn1950.PURE_II:
            v = evaluate(g, kuhn1950.pure_profile(g, x, y)).values[0]
            if v != kuhn1950.scheme_payoff(x, y):
                bad.append(f"{x} vs {y}")
    yield Row(
        c.id,
        c.source,
        "full 27x64 normal form",
        "disagrees" if bad else "verified",
        f"{len(bad)} entries differ" if bad else "all 1728 entries equal the payoff scheme",
    )
    # value of the reduced matrix game with the printed optimal strategies
    xs = kuhn1950.BASIC["A"]
    ys = [(F(1, 3), (0, 0, 3)), (F(1, 3), (0, 1, 3)), (F(1, 3), (2, 0, 3))]
    val = (
        sum(
            wx
            * wy
            * kuhn1950.REDUCED[kuhn1950.REDUCED_ROWS.index(x)][kuhn1950.REDUCED_COLS.index(y)]
            for wx, x in xs
            for wy, y in ys
        )
        / 6
    )
    yield Row(
        c.id,
        c.source,
        "value of the reduced game",
        "verified" if val == F(-1, 18) else "disagrees",
        f"(A) vs II's first optimal strategy: {val}",
    )


def _kuhn_general(c: Claim, ctx: Context) -> Iterator[Row]:
    grid = [
        (F(1), F(1, 2)),
        (F(2), F(1)),
        (F(3), F(1)),
        (F(1), F(1)),
        (F(1), F(3, 2)),
        (F(2), F(3)),
        (F(1), F(5, 4)),
        (F(1), F(2)),
        (F(3, 2), F(3)),
    ]
    for a, b in grid:
        case, prof, value = kuhn1950.general_case(a, b)
        spec = f"kuhn(players=2,ante={a},bet={b})"
        row = certify(c, f"{case}: a={a}, b={b}", ctx.game(spec), prof, (value, -value))
        if case == "case 1" and row.status == "disagrees":
            fixed = -b * b / (6 * (2 * a + b))
            ok = row.exact["values"][0] == str(fixed) and set(row.exact["gains"]) == {"0"}
            row = Row(
                row.claim,
                row.source,
                row.params,
                row.status,
                row.detail
                + (
                    f"; the strategies are optimal and the exact value is -b^2/(6(2a+b)) = {fixed} "
                    "(the printed -b/(6(2a+b)) does not scale with the stakes)"
                    if ok
                    else ""
                ),
                row.exact,
            )
        yield row
        if case == "case 1":
            fixed = -b * b / (6 * (2 * a + b))
            yield certify(
                c,
                f"case 1 corrected value -b^2/(6(2a+b)): a={a}, b={b}",
                ctx.game(spec),
                prof,
                (fixed, -fixed),
            )
        if case == "case 3":
            s = 2 * a + b
            for eta in ((a + b) / s,):
                _, prof, value = kuhn1950.general_case(a, b, eta)
                yield certify(
                    c,
                    f"{case}: a={a}, b={b}, printed upper eta={eta}",
                    ctx.game(spec),
                    prof,
                    (value, -value),
                )
            # I's indifference: bluffing a 1 needs eta >= (2a-b)/(2a+b), betting a 3
            # needs eta <= b/(2a+b) (= xi); the exact interval
            for eta in ((2 * a - b) / s, b / s, (2 * a - b + b) / (2 * s)):
                _, prof, value = kuhn1950.general_case(a, b, eta)
                yield certify(
                    c,
                    f"{case} corrected eta in [(2a-b)/(2a+b), b/(2a+b)]: a={a}, b={b}, eta={eta}",
                    ctx.game(spec),
                    prof,
                    (value, -value),
                )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "kuhn-family",
        "Kuhn (1950), behaviour parameters",
        "alpha = gamma/3, beta = gamma/3 + 1/3, (xi, eta) = (1/3, 1/3) are optimal; value -1/18",
        _kuhn_family,
    ),
    Claim(
        "kuhn-basic",
        "Kuhn (1950), strategies (A)-(L)",
        "the basic optimal strategies and their behaviour parameters",
        _kuhn_basic,
    ),
    Claim(
        "kuhn-matrices",
        "Kuhn (1950), payoff scheme and reduced matrix",
        "the 27x64 normal form from the payoff scheme and the reduced 8x4 matrix",
        _kuhn_matrices,
    ),
    Claim(
        "kuhn-general",
        "Kuhn (1950), cases 1-4",
        "solutions and values for ante a and bet b",
        _kuhn_general,
    ),
)
