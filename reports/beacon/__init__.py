"""Beacon Patrol reports: simulate.py (one policy), compare.py (policies or tile sets on the same games), plots.py."""
