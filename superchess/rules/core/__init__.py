"""The shared rules machinery every family builds on: geometry, piece data, move integers, compiled
tables, the position with make/unmake, position text, the board contract and its one-move and
multi-move boards, turns, the native core switch. It imports nothing above it; the data-only
variants (data/*.toml) play on it directly."""
