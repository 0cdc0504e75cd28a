"""Cational Meographic (seed 004): rules as data, a pure-Python reference, bots, simulate and compare.

The game's registration is analyzer/meographic/game.py (GAME); the rules as implemented and every default
where the seed is silent: docs/meographic/rules.md.
"""
