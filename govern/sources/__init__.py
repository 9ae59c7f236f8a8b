"""Source adapters: each turns a declared source into a normalized TypeGraph.

JSON Schema and OpenAPI adapters never import pydantic; the pydantic adapter is imported only when a
pydantic source is read.
"""
