"""The tiling family (Tiling Rider Chess): a board of tiles and 2x2 units, pieces that ride
together as aggregates, a giant King, and turns of 1 to N moves."""
