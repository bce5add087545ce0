"""The domain: papers, annotations, the store, search, import and export. Never imports textual."""
