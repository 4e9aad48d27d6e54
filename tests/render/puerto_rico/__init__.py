"""Puerto Rico's images (render/puerto_rico/): its table, panel, score sheet and expansions."""
