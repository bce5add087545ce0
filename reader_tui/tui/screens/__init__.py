"""Full screens: the main screen (with its action and extras mixins for now), triage, statistics, help."""
