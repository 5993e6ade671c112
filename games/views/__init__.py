"""The club-night pages, by topic: set-up, draw, score sheets, the room screen."""
