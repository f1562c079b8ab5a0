"""multilingual-e5-small: model file, tokenizer, the C kernel (native and wasm), vectors."""

# What e5 reads before a question and before a passage. Here rather than in `native`, so that
# the semantic retrievers can name them without loading the encoder's modules (the page lists
# the retrievers at start-up, long before the model is in).
QUERY, PASSAGE = "query: ", "passage: "
