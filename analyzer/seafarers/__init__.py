"""Catan: Seafarers — scenario catalog, boards, dice, production and pirates."""
