"""Readers that turn files people have into `Paper` records."""
