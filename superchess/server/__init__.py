"""The game server: matches, players, clocks, persistence and websockets over the rules layer."""
