"""The coauthoring sidecar (format major 1): a conforming reader, formatter, merge and writer.

Sidecars are handled as plain JSON data (dicts and lists) rather than typed objects, because a
conforming writer must carry every field it does not recognise, at every level, byte for byte.
The generated pydantic models in `models` are for callers that want typed access; they are imported
only on demand so that `govern` starts without pydantic.
"""
