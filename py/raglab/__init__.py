"""raglab: measure retrieval and extractive answers over a bilingual help centre.

The modules the browser runs (analyzer, corpus, chunking, bm25, retrieval, answer,
pipeline, goldens, metrics, ...) import only the standard library.
"""

__version__ = "0.1.0"
