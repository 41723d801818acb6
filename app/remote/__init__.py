"""Two boards far apart playing one game through an MQTT broker.

Each board lights the other's moves for its player to place, as it lights the engine's,
and checks every move it receives with its own rules engine. The transport is an
existing broker (mosquitto in a home, or a hosted one), not a relay of our own: it
already keeps retained messages, publishes last wills, speaks TLS and checks accounts.
The broker is trusted to pass messages on, and with nothing else: whatever a stranger on
the same broker can read or send, the game stays the two boards'.

Topics (``CLUB`` is ``[remote] club``, ``tabletop`` when none is set)::

    tabletop/v1/CLUB/invite/SLOT           the inviting board's offer (retained)
    tabletop/v1/CLUB/invite/SLOT/join      a joining board's answer
    tabletop/v1/CLUB/invite/SLOT/welcome   the game, sealed for the board that joined
    tabletop/v1/CLUB/invite/SLOT/reply     that board's word on the game, sealed
    tabletop/v1/CLUB/game/ID/COLOUR/state     everything COLOUR's board has (retained)
    tabletop/v1/CLUB/game/ID/COLOUR/presence  online, or its last will: offline (retained)
    tabletop/v1/CLUB/live/BOARD            a board's live game, public to the club (retained)

The invitation (:mod:`app.remote.invitation`). Board A shows a code of eight characters,
``K7QM-R2XD`` (40 bits, Crockford's alphabet: no I, L, O or U to misread). Its first two
characters only choose the SLOT, so that two invitations of a club rarely meet; the whole
code is the password of a SPAKE2 exchange (the ``spake2`` package, as magic-wormhole
uses it): A publishes its SPAKE2 message, B answers with its own and a confirmation
(an HMAC under the agreed key). Both get one strong 256-bit key, and only if both typed
the same code; the messages on the broker tell an eavesdropper nothing they could test
guesses against offline, so a short code is enough. Someone guessing online gets one try
per exchange: after three wrong confirmations A withdraws the invitation. A then seals
the game (game, options, who plays which colour) for B under the key, and removes its
offer; B answers, sealed under a key of its own, that it takes the game or refuses it
(a game it does not play, or its person cancelled), and A starts the game only once B
took it, or says why not in one line ("Ben's board does not play Akron"). The key never
leaves the two boards; each keeps it with the game in a file only
its user can read (:mod:`app.remote.far_board`).

The table's side (:mod:`app.remote.play`). ``tabletop run`` on a board whose
configuration has ``[remote]`` (:mod:`app.remote.config`) offers and joins games from
the touch screen's menu ("Far board": Invite shows the code, Join types it on a keypad
of the code's alphabet). The invitation runs in a thread and a connection of its own
while the board plays on; the agreed game takes the table between two turns of the loop,
as a saved game picked on the screen does: a new record, the far board's seat, its
link among the loop's front ends. The game is kept in ``data_dir/far/game.json`` and
``tabletop run`` continues it at its next start (after a restart or a power cut) unless
it was stopped, in its own record (the newest of its game with the far board's seat);
a game agreed just as the board stopped, before a turn took it to the table, is the one
continued, as the other board plays it already. Starting another game on the board (the
menu, the load list, a new invitation) leaves it, said on both boards.

Messages (:mod:`app.remote.sealing`). Every message of a game is sealed with
ChaCha20-Poly1305 under a key of its sender's colour (derived with HKDF from the agreed
key), its topic bound in as associated data: a stranger can neither read nor forge one,
nor move one to another topic (or make a board's own message look like the other's). A
``state`` message carries a sequence number, counted up by its sender and kept across
restarts, the whole game so far (each move numbered by its place in the list), the
number of moves and a hash of the position they lead to, computed by the sender's engine
(and the takebacks agreed, see below). The receiver refuses a sequence number it has
seen (a replay, or an older message sent again out of order), compares the record move
for move with its own, checks every move beyond its own with its own engine (the other
colour's turn, legal) and then the count and the hash. A record that disagrees with this
board's stops the game on both boards with one line, never a silent fork.

Catching up. Every ``state`` is the whole game and is retained, so a board that missed
messages (its link dropped, the broker restarted, the board itself restarted) needs
only the newest one: it gets it when it subscribes, and each board publishes its state
again whenever it connects and whenever the other board comes online, which also undoes
a stranger's replay of an old retained message. No persistent session is needed, so a
broker that lost everything (no persistence, a restart) loses nothing of the game.

Presence. Each board sets its last will to a sealed ``offline`` on its ``presence``
topic, and publishes ``online`` (retained) when it connects; both carry the count of its
connections, so a replayed ``online`` from an earlier connection cannot hide that it is
gone. The other board says it is offline, and the game resumes when it is back.

The broker (:mod:`app.remote.broker`) is reached over TLS, the certificate verified
against the system's authorities (or ``[remote] ca``), unless ``[remote] tls = false``
says it is a broker in the home network. Nothing received grows without bound: a packet
over 64 KiB is refused by the broker itself (the board asks for that limit when it
connects), anything over 16 KiB or not sealed by the other board is counted and dropped
before it is kept, and of the authentic messages only the newest per topic is kept for
the table loop, which takes them in its own thread.

A club's boards in one place (:mod:`app.remote.club`). A board whose ``[remote]`` names
a ``club`` also publishes its live game, retained, on ``live/BOARD`` (its name as a
topic level, with a hash of the whole name), with an ``online: false`` last will. These
records are not sealed, as a tournament relay is public: any client the broker lets
read the club's topics sees each board's name, who plays it, the game, its options and
its moves, and any client allowed to publish there can pose as a board or delete its
record (only the broker's per-topic rights prevent that). A board sends at most four
records a second and none over 16 KiB. A watcher (``tabletop watch``) only subscribes,
checks every record, replays its moves with its own engine and keeps at most 64 boards.

Limits. The broker sees who talks to whom and when (topics and sizes), and a stranger on
it can delete or replay retained messages, flood the topics, or spoil an invitation with
three wrong codes: each costs the boards a republish or a new invitation, never a move,
but accounts with per-topic rights on the broker are the answer to a hostile club. The
two boards trust each other: either could publish as the other. The game lives in the
file each board keeps: a board that loses it (a new SD card) cannot rejoin. A joining
board that drops before its word on the game reaches the inviting board, or an offer
cancelled at that very moment, leaves one board with a game the other does not play (it
shows the other offline): a new invitation is the way out. A board that stops between
an agreement and its next turn while it played another far board takes the new game at
its next start without telling the old one (a clean stop tells it).
A new game needs both sides too. New game on one board (the same game and options)
counts up ``round``, which every ``state`` carries, and the other board says that a new
game was started there; the game before ends on both (each keeps its record), and the
other board's person plays the new one by pressing New game too, which catches up with
any move made in it meanwhile. States of another round than a board's own are not
checked against its game. A resignation is carried too: a player resigns on their own
turn, their board's ``state`` says who resigned with the record they resigned at, and
the other board, at that very position, ends the game the same way (at another, the
boards disagree). A new game of another game or with other options is not carried: it
ends the game with the other board, as a piece lifted off by hand (a takeback only one
side made) does.

Takebacks. Undo on a board offers one: its ``state`` says ``offer``, and the other
board, on the same position, shows it to its person as a takeback offered by a player
away. Accepting takes back there at once (to the offering player's last turn) and counts
it in ``takebacks``, which every ``state`` carries; the offering board, seeing the
count one above its own while its offer stands, takes back by the same rule, and the
record it then has is checked against the other's as any other. A move declines the
offer on both boards. A count that grows without this board's offer is a disagreement.
"""
