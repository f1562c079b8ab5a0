"""The articles, the three chunkers, the golden questions and the importers."""
