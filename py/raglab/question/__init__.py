"""Reading the question: what it asks (type, halves, values), its words respelt, their synonyms.

Between the text tools below and the answerer above: nothing here reads an article's sentences.
"""
