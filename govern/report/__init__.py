"""Renderers of verification findings: text, json, github, sarif, markdown."""
