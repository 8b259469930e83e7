"""Math rendered at build time, as MathML: no script and no font is loaded by a page.

The TeX of every ``$...$``, ``$$...$$`` and ``{math}`` node is converted to MathML
by ``latex2mathml`` when the page is written; browsers draw MathML themselves
(Chromium since version 109, Firefox, Safari), so the site shows its formulas
offline.  Registered as the HTML math renderer ``mathml``
(``html_math_renderer = "mathml"`` in ``conf.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def _mathml(tex: str, display: str) -> str:
    from latex2mathml.converter import convert

    return convert(tex.strip(), display=display)


def visit_math(self, node: nodes.Element) -> None:
    self.body.append(f'<span class="math notranslate">{_mathml(node.astext(), "inline")}</span>')
    raise nodes.SkipNode


def visit_displaymath(self, node: nodes.Element) -> None:
    if node.get("number"):
        number = f'<span class="eqno">({node["number"]})</span>'
    else:
        number = ""
    self.body.append(self.starttag(node, "div", CLASS="math notranslate"))
    self.body.append(_mathml(node.astext(), "block") + number + "</div>\n")
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, object]:
    app.add_html_math_renderer(
        "mathml",
        inline_renderers=(visit_math, None),
        block_renderers=(visit_displaymath, None),
    )
    return {"parallel_read_safe": True, "parallel_write_safe": True}
