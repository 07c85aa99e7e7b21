"""Game-level helpers over any board: game records, generated set-ups, piece previews."""
