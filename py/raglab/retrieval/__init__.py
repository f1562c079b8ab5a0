"""Ranking primitives and every retriever: BM25, dense, hybrid, rerank, semantic."""
