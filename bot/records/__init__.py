"""战绩: the group's finished hands (/history), a hand step by step (/replay) and as JSON Lines
(/export), my figures (/stats) and the score board (/score)."""
