"""STATES: collect four bordering states, or knock with the highest total in one colour.

One game family, pure and self-contained (docs/states.md): ``deck`` holds the cards' colours and
values (a deck file may be incomplete: R300), ``connect`` judges a "STATES!" claim against the
shared atlas, ``knock`` judges a knock, ``scoring`` pays a won hand, ``hand`` plays one hand and
``game`` plays hands to the target over the ``actions``; ``replay`` rebuilds a game from a log.
"""
