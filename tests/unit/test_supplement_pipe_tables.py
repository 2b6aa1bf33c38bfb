"""index.html's Markdown pages: plain tables written directly, the same HTML as markdown-it-py."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from irtables.supplement.index_page import markdown_html
from irtables.supplement.pipe_tables import split_tables

TABLE = (
    "| dataset   | metric  | d\\_z    | p       | sig |\n"
    "|-----------|:--------|--------:|:-------:|-----|\n"
    "| Dataset 1 | NDCG@10 | 0.0901  | 5.9e-05 | +   |\n"
    "| Data  2   | R@100   | −0.1957 | 0.0005  |     |\n"
)
PAGES = {
    "one table": TABLE,
    "headed": "# Tests\n\nSome *text* and `code`.\n\n" + TABLE + "\n## Next\n\n- a\n- b\n",
    "two tables": TABLE + "\n\n\nbetween\n\n" + TABLE + "\n1. one\n\n2. two\n",
    "header only": "| a | b |\n|---|---|\n",
    "emphasis in a cell": "| a |\n|---|\n| *x* |\n",
    "html in a cell": '| a |\n|---|\n| <b>"x" & y</b> |\n',
    "escaped pipe": "| a |\n|---|\n| x \\| y |\n",
    "fewer cells": "| a | b |\n|---|---|\n| x |\n",
    "no closing pipe": "| a | b\n|---|---|\n| x | y |\n",
    "table after a paragraph": "para\n| a |\n|---|\n| x |\n",
    "row without pipes": "| a |\n|---|\n| x |\nlazy\n",
    "not a delimiter": "| a |\n| x |\n| y |\n",
    "in a list": "- item\n\n  | a |\n  |---|\n  | x |\n",
    "fenced": "```\n| a |\n\n|---|\n| x |\n```\n",
    "link definition": "[x]\n\n| a |\n|---|\n| x |\n\n[x]: http://e.org\n",
    "nbsp and tabs": "| a\u00a0 | b |\n|---|---|\n| \u00a0x | y\tz |\n",
    "lone backslash": "| a |\n|---|\n| x\\ |\n",
    "entities": "| a |\n|---|\n| &amp; &#x41; |\n",
}


def _markdown_it(text: str) -> str:
    # the page sits under a section's <h2>: its highest heading becomes an <h3>
    top = min(
        (len(x) - len(x.lstrip("#")) for x in text.splitlines() if x.startswith("#")), default=3
    )
    lines = ["#" * (3 - top) + x if x.startswith("#") else x for x in text.splitlines()]
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    return str(parser.render("\n".join(lines) + "\n"))


@pytest.mark.parametrize("name", list(PAGES))
def test_markdown_html_equals_markdown_it_on_the_whole_page(name: str) -> None:
    assert markdown_html(PAGES[name]) == _markdown_it(PAGES[name])


def test_plain_tables_do_not_go_through_the_markdown_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[str] = []
    render = MarkdownIt.render

    def counting(self: MarkdownIt, src: str, env: object = None) -> str:
        parsed.append(src)
        return str(render(self, src, env))

    monkeypatch.setattr(MarkdownIt, "render", counting)
    page = PAGES["two tables"]
    assert markdown_html(page) == _markdown_it(page)
    parsed.clear()
    markdown_html(page)
    assert parsed and not any("Dataset 1" in src for src in parsed)


def test_split_tables_keeps_every_line_in_order() -> None:
    lines = PAGES["two tables"].splitlines()
    blocks = split_tables(lines)
    assert [line for _, block in blocks for line in block] == lines
    assert [plain for plain, _ in blocks] == [True, False, True, False]
