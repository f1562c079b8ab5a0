"""The command line (`raglab ...`)."""
