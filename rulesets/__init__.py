"""The bundled rulesets (YAML files next to this one)."""
