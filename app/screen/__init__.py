"""The pygame screen: the status screen, the game menu, and the board drawn to scale.

Everything here draws onto a surface it is given and returns what it drew (texts and
touch buttons), so the tests can check a rendered screen without a display or OCR.
"""
