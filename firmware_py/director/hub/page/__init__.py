"""The director's page (docs/hub.md, "The director's page"), served by the hub on its loop.

``board`` keeps every table's latest status and state (pure); ``server`` holds the page on
the hub's loop; ``app`` lists the routes; ``views`` and ``render`` make the HTML; ``changes``
enters results and pairs rounds through the record; ``sessions`` and ``password`` are the
director's login; ``static/`` the stylesheet and the live grid's script.
"""
