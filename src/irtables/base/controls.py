"""The control characters no printed string may hold as they are."""

from __future__ import annotations

#: C0 and C1 controls, DEL, and the line and paragraph separators, as the inside of a
#: regular expression's character class: ``re.compile(f"[{CONTROLS}]")``.
CONTROLS = "\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029"

#: The controls that break a line or indent: a printed string shows each as a space.
LINE_BREAKS = "\t\n\r\f\v\u2028\u2029"
