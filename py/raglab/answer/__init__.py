"""The extractive answerer: sentence choice, short answers, confidence."""
