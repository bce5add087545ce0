"""Modal dialogs: each collects the user's choices and returns them; the screens and the core do the work."""
