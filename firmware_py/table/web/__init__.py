"""The table's own web page (docs/web.md): the view for anyone, entries for the seated players.

``page`` is what the daemon holds (served on its loop, fed each view), ``app`` the aiohttp
application and its routes, ``access`` the join code and the seats' sessions, ``snapshot`` the
table as the page shows it, ``static/`` the page itself.
"""
