"""The Textual app. Only this package imports textual."""
