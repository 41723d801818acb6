"""The page on the home network: the board live, its saved games, its settings.

:mod:`app.web.snapshot` turns the session into the JSON the page draws;
:mod:`app.web.pairing` decides who may change the table; :mod:`app.web.server` serves
the page beside the table loop; :mod:`app.web.mdns` makes ``http://tabletop.local/``
find it. The page itself is ``static/``: one HTML file, its script and its style.
"""
