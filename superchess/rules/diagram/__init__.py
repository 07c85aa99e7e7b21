"""The Interactive Diagram family: variants written as an Interactive Diagram line with XBetza moves
(Vanguard, pasted diagrams), on the core's position and tables plus walked move patterns."""
