"""The package version, at the bottom of the layers so that every module can record it in its results."""

__version__ = "0.1.0"
