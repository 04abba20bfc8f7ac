"""Shared settings of the Python client's tests."""
