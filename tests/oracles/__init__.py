"""Reference implementations (test oracles), written from the rules texts independently of the rules
core: the product's tests compare the core with them move by move. Their own tests are the
`test_*_oracle.py` modules here."""
