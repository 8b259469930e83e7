"""Closed-form results of the papers, as exact objects with their sources."""
