"""multilingual-e5-small: model file, tokenizer, the C kernel (native and wasm), vectors."""
