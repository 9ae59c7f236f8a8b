"""Witness documents: a concrete JSON document for a breaking change, confirmed by a real validator.

For a change that breaks a direction, the side that writes accepts the document and the side that reads
rejects it. Documents are built from the normalized graphs (`generate`), checked with `jsonschema` against
each side's exact 2020-12 export (`confirm`; `local` spares revalidating what documents of one shape share),
searched change by change within a budget (`search`), and rendered into the diff and verify outputs
(`render`). Nothing here imports jsonschema at module level: only a command given `--witness` pays for it.
"""
