"""The rulelang command line."""
