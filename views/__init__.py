"""Blueprints: one per feature, each with a template folder of the same name."""
