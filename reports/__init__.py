"""Reports: Markdown and self-contained HTML documents, and their figures.

Shared by every game: document.py (number and interval wording, Markdown/HTML rendering) and
plots.py (figure, PNG, colours). One sub-package per game: beacon/, seafarers/.
"""
