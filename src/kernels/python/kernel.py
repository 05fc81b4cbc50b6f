"""Placeholder replaced by the Python kernel driver (issue 6)."""
