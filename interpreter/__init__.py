"""rulelang interpreter: IR -> running games (state, flow, decisions, agents, logs)."""
