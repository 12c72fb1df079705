"""Rocking Raft (work in progress): components, tilt model, loading."""
