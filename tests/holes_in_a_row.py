"""The geometry of the tests' toy boards: their few holes in a row, a unit apart.

A board's place and axes are part of the engines' contract (abstract in
``engines.core.Board``), so every toy board needs them; they share this one row rather
than each spelling it out."""

from engines.core import Axes, Place, PointError


class HolesInARow:
    """Mixed in before ``Board``: hole ``i`` of ``holes`` stands at x = i on row 1."""

    def place(self, name):
        if name not in self.holes:
            raise PointError(f"{name!r} is not a hole")
        return Place(self.holes.index(name), 0)

    def axes(self):
        return Axes({x: "abcd"[x] for x in range(len(self.holes))}, {0: "1"})
