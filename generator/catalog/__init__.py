"""What ships for designers to use: the icon library and the shared templates (`spellpress icons`, `spellpress templates`)."""
