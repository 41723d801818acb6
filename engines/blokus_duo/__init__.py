"""Blokus Duo: polyominoes placed corner to corner on a 14x14 board."""
