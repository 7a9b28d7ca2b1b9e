"""The Level 3 games of Combo 3, built from the Level 4 games where the rules are the same.

Each module holds what Level 3 changes: Border-Up's groups of 3 from 18 cards, State IQ's one
card per team, Dashing States without a Power card, Play the Ranks without the Cards/Call
teams, the BUR, Pull the Power and the GeoStar, and Chummy Challenge's red or blue square.
Rulings R59 onwards in docs/rulings.md.
"""
