"""What a running game is made of: its state, where everything lives in it,
the decision records, the one source of chance, and the errors the rules
raise while running. Generated code runs against exactly these."""
