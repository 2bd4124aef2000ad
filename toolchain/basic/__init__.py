"""BASIC V2: tokenizer, detokenizer (and later the runner)."""
