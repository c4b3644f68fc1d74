"""The rules FAQ: its content, loaded and checked from data files, and the search over it."""
