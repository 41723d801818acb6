"""The product around the engines: drivers, sensing, session, scenes, screen, CLI."""
