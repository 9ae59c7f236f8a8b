"""The catalog pair: readable declarations of every root and named type, in English and Chinese."""
