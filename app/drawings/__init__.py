"""The makers' drawings: what a profile means on paper (pin tables, the wiring plan, the
schematic, printable sheets as SVG and PNG).

They read the board profiles the drivers read but drive nothing, so they live beside
:mod:`app.hardware` rather than among the drivers; ``tabletop wiring`` prints them.
"""
