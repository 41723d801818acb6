"""Drive the sensing pipeline as a session does, for the pipeline tests of every game."""

from app.sensing.events import Moved, Seen, Takeback

SCAN = 0.01  # the session ticks the pipeline after every scan, 100 times a second


def drive(pipeline, board, touches, *, until=None, apply_takebacks=True, seen=False):
    """Tick every scan, feed each reading, push the moves the pipeline reports (and pop
    its takebacks unless told not to), resync after each. Returns every event, leaving
    out the early ``Seen`` lights unless ``seen``."""
    events = []

    def take(new):
        for event in new:
            if isinstance(event, Seen) and not seen:
                continue
            events.append(event)
            if isinstance(event, Moved):
                board.push(event.move)
            elif isinstance(event, Takeback) and apply_takebacks:
                board.pop()
            else:
                continue
            take(pipeline.resync(board))

    touches = sorted(touches, key=lambda touch: touch.t)
    end = until if until is not None else (touches[-1].t if touches else 0) + 2
    t, index = 0.0, 0
    while t <= end:
        while index < len(touches) and touches[index].t <= t:
            touch = touches[index]
            take(pipeline.feed(touch.hole, touch.on, touch.t, touch.colour))
            index += 1
        take(pipeline.tick(t))
        t = round(t + SCAN, 6)
    return events
