"""The games.  Each game package holds its rules object, its state and its record format."""
