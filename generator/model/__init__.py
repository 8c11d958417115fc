"""The validated definitions: what game.yaml, component files and templates may say."""
