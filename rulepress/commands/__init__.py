"""One module per CLI verb; each exposes a plain function that tests call directly."""
