"""The phone page: a thin Flask layer over the table session (app factory, JSON API, live updates)."""
