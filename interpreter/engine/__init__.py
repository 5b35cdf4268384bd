"""The game: `Game`, the one public API to a game state (new_state,
decision, apply, clone, is_terminal, returns), and what is built on it
without agents: what each role may see, invariants, logs and replays,
saves."""
