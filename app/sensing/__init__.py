"""From raw sensor readings to moves: debounce, settle, infer, and say what is wrong."""
