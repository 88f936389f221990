"""nekobako (猫箱): Cat in the Box, Catopomp and Shut the Box, for play and for research."""

__version__ = "0.1.0"
