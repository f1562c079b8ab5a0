"""Scoring configurations: metrics, statistics, risk, recommendation, reports, TREC."""
