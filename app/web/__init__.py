"""The page on the home network: the board live, its saved games, its settings.

:mod:`app.web.snapshot` turns the session into the JSON the page draws;
:mod:`app.web.pairing` decides who may change the table; :mod:`app.web.server` serves
the page beside the table loop; :mod:`app.web.mdns` makes ``http://tabletop.local/``
find it; :mod:`app.web.far` says what the page shows of a far game's invitation, to
whom, and :mod:`app.web.club` what the club's page (served by a board and by
``tabletop watch``) shows of the club's boards. The page itself is ``static/``: its HTML
files, their scripts (``board.js`` draws a board for both pages) and their style.
"""
