"""The InterGrid family: two lattices (squares and the points where the grid lines cross), captures
by enclosure, and turns of a square move plus an optional point move."""
