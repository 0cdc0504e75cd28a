"""Catan: Seafarers reports: balance.py (set-up balance; also board drawings), pirates.py (the Pirate Islands race),
hexplot.py (hex boards)."""
