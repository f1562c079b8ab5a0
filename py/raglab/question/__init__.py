"""Reading the question: what it asks (type, halves, values), its words respelt, their synonyms.

Between the text tools below and the answerer above. A few readers here also judge a sentence
by what the question asks of it (`modality.restricts`, `modality.imperative`), never which to quote.
"""
