"""The guide's outline, under its old name: it moved down to rulepress.outline, below the
checks, which find the anchors that clash (RP226)."""

from rulepress.outline import Chapter, Section, chapters, section_of, shown_at

__all__ = ["Chapter", "Section", "chapters", "section_of", "shown_at"]
