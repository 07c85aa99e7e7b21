"""Super Chess 16x16 and other large-board chess variants: rules, engine, server and board."""
