"""``toypoker compare`` (:mod:`toypoker.cli.compare`): what it runs when not told."""

from __future__ import annotations

import re

import toypoker as tp


def test_the_default_methods_are_the_registry_s_iterative_ones(cli):
    """The default came from a hard-coded list that missed pcs-cfr+; now it is every
    method of :data:`toypoker.METHODS` that iterates (the one-shot exact ones have no
    curve against time), read from the registry, as ``--help`` prints it."""
    code, out, _ = cli("compare", "--help")
    shown = re.search(r"\[default:\s*([^\]]+)\]", " ".join(out.split()))
    assert code == 0 and shown is not None, out
    default = shown.group(1).replace(" ", "").split(",")
    assert default == [n for n, m in tp.METHODS.items() if not m.one_shot]
    assert "pcs-cfr+" in default and not {"lp", "enumerate", "tmecor"} & set(default)
