"""People's hands at a simulated board under a session, for the session's tests: each
piece put down or lifted 0.2 s after the last, then the board left to settle, on a clock
the hands advance."""

from app.hardware.sensors import SimulatedSensors


class Board:
    """A simulated board of ``columns`` x ``rows`` holes under ``session``."""

    def __init__(self, session, columns=10, rows=10):
        self.session = session
        self.sensors = SimulatedSensors([f"{chr(ord('a') + c)}{r}" for c in range(columns)
                                         for r in range(1, rows + 1)])
        self.t = 0.0
        self.session.tick(self.t)

    def _read(self):
        for hole, on in self.sensors.read().items():
            self.session.on_reading(hole, on, self.t)

    def place(self, *holes):
        for hole in holes:
            self.t += 0.2
            self.sensors.place(hole)
            self._read()
        self.settle()

    def lift(self, *holes):
        for hole in holes:
            self.t += 0.2
            self.sensors.lift(hole)
            self._read()
        self.settle()

    def settle(self):
        self.t += 2.0
        self.session.tick(self.t)
