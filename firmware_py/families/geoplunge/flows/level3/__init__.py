"""The Level 3 flows that differ from Level 4's: State IQ's one card (no card to deal after a
right guess), Play the Ranks' two Power cards (no Cards/Call, BUR, Pull the Power or GeoStar)
and Chummy Challenge's red or blue square. Border-Up and Dashing States play the Level 4 flow.
"""
