"""The facade the browser worker calls, and its state."""
