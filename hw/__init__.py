"""The hardware description and its seams: board profiles (TOML), the Protocols the shell talks to,
and the builder that turns a profile into drivers (pin factory, display and ports injectable)."""
