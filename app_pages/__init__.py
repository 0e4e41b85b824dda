"""The app's pages: each module's build() lays out one tab and wires its events."""
