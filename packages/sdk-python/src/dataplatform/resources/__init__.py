"""Hand-written resources: generated classes extended with what a generator cannot know."""
