"""Regatta kernels: the step contract (engine.py) and the bots (bots.py)."""
