"""Kulami: panels of fields, marbles placed in the row or column of the last one."""
