"""The exact point on an LP face (src/toypoker/solvers/exact_face.py)."""

from fractions import Fraction

import numpy as np

from toypoker.solvers.exact_face import solve_face

F = Fraction


def test_square_system_is_solved_exactly():
    # x + y = 1, x - 2y = 0: x = 2/3, y = 1/3 (by hand)
    a = np.array([[1, 1], [1, -2]], dtype=object)
    assert solve_face(a, [F(1), F(0)], np.array([0.66, 0.34])) == [F(2, 3), F(1, 3)]


def test_dependent_rows_and_free_unknowns():
    # a repeated row is dropped; the unknown left free (z, no equation fixes it)
    # keeps its float guess rounded (0.25 exactly); x + y = 1 and x = 3y as before
    a = np.array([[1, 1, 0], [2, 2, 0], [1, -3, 0]], dtype=object)
    sol = solve_face(a, [F(1), F(2), F(0)], np.array([0.75, 0.25, 0.25]))
    assert sol == [F(3, 4), F(1, 4), F(1, 4)]


def test_nothing_to_solve():
    assert solve_face(np.zeros((0, 2), dtype=object), [], np.zeros(2)) is None
    assert solve_face(np.zeros((1, 2), dtype=object), [F(0)], np.zeros(2)) is None
